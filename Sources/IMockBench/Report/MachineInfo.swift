#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import IMockCommon
import IMockCore

/// What a reader needs to weigh the figures: the build, the cores, the load when the run
/// started, and what was found to compare with.
struct MachineInfo {
    var build: String
    var cores: Int
    var loadAverage: String
    var python: Bool
    var nginx: Bool

    static func current(launcher: ServerLauncher) -> MachineInfo {
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        let load = (try? Files.read("/proc/loadavg")).map { String(decoding: $0, as: UTF8.self) }?
            .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        return MachineInfo(
            build: build, cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), loadAverage: load,
            python: launcher.pythonMock != nil, nginx: launcher.nginx != nil)
    }

    var line: String {
        "imock bench: \(build) build, \(cores) cores, load average \(loadAverage); servers in child processes on "
            + "127.0.0.1, load from imock's own client code on one event-loop thread; baselines: Python mock "
            + (python ? "found" : "not found") + ", nginx " + (nginx ? "found" : "not installed")
    }

    var json: JSONValue {
        [
            "bench": "imock", "build": .string(build), "cores": .int(Int64(cores)), "loadAverage": .string(loadAverage),
            "python": .bool(python), "nginx": .bool(nginx),
        ]
    }
}
