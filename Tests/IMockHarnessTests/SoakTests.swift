import Foundation
import IMockCore
import IMockHarness
import IMockTestSupport
import Testing

/// `imock soak` (docs/SOAK.md): a short soak in process must lose, duplicate and reorder
/// nothing, close every kick, keep memory and files flat, and write a well-formed report; one
/// against an external `imock serve --clock virtual` samples that process.
///
/// `IMOCK_SOAK_SECONDS` sets the in-process run's length (default 60 s, the one-minute run of
/// issue #14; shorter for a quick local run). The soak is light (about an eighth of a core) and its suite is
/// not serialized with the others, so its minute overlaps the rest of `swift test`.
@Suite("Soak")
struct SoakTests {
    static var seconds: Int {
        ProcessInfo.processInfo.environment["IMOCK_SOAK_SECONDS"].flatMap(Int.init).map { max($0, 5) } ?? 60
    }

    @Test("imock soak in process loses nothing, duplicates nothing and keeps memory and files flat")
    func inProcess() async throws {
        // A process of its own: its memory and descriptors are the soak's and its server's
        // alone, not those of the other tests running alongside in this one.
        let output = try await ExternalCommand.run(
            try IMockProcess.binaryPath(), ["soak", "--seconds", String(Self.seconds), "--seed", "14", "--json"])
        let report = "\(output.stdout)\n\(output.stderr)"
        #expect(output.status == 0, "\(report)")
        let json = try JSONValue.parse(Array(output.stdout.utf8))
        func int(_ path: String...) -> Int64 { path.reduce(json as JSONValue?) { $0?[$1] }?.intValue ?? -1 }
        func keys(_ path: String...) -> Set<String> { Set(path.reduce(json as JSONValue?) { $0?[$1] }?.objectValue?.map(\.key) ?? []) }
        #expect(json["passed"]?.boolValue == true && json["failures"]?.arrayValue?.isEmpty == true, "\(report)")
        for figure in ["lost", "duplicated", "outOfOrder", "misdelivered"] { #expect(int("messages", figure) == 0, "\(figure): \(report)") }
        #expect(int("kicks", "withoutClose") == 0 && int("anomalies", "count") == 0, "\(report)")
        // Every ingredient of the mix happened.
        #expect(int("messages", "accepted") > 100 && int("messages", "deliveredLive") > 0, "\(report)")
        #expect(int("messages", "deliveredOffline") > 0 && int("messages", "acked") > 0, "\(report)")
        #expect(int("messages", "redelivered") > 0, "offline messages not acked come again: \(report)")
        #expect(int("logins", "accepted") > 50 && int("kicks", "closed") > 0 && int("ends", "tokenExpired") > 0, "\(report)")
        #expect(keys("kicks", "byCode").isSuperset(of: ["206", "217", "2002"]), "policy, REST and control-API kicks: \(report)")
        #expect(!keys("logins", "refused").isEmpty, "policies refuse logins too: \(report)")
        // The mix speaks every dialect: the delivery contract is the engine's, for all of them.
        #expect(keys("logins", "byDialect") == ["imock-json", "msync", "openim"], "\(report)")
        for dialect in ["imock-json", "msync", "openim"] { #expect(int("logins", "byDialect", dialect) > 10, "\(dialect): \(report)") }
        #expect(int("tokens", "renewalsAccepted") > 0 && int("tokens", "warnings") > 0 && int("control", "clockAdvances") > 0, "\(report)")
        #expect(keys("control", "faults").count >= 4, "\(report)")
        // Slow readers and silent peers, with large messages sent to them.
        #expect(int("stalls", "reading") > 0 && int("stalls", "silent") > 0 && int("stalls", "floodMessages") > 0, "\(report)")
        #expect(json["apps"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
            == ["em-multi", "em-single", "em-multi-keep", "em-single-keep", "oi-0", "oi-1", "oi-4", "oi-5"])
        // Memory and files: sampled about once a second, within the bound, back to the start.
        #expect(json["memory"]?["available"]?.boolValue == true)
        #expect((json["memory"]?["samples"]?.arrayValue?.count ?? 0) >= Self.seconds - 1, "\(report)")
        #expect(int("memory", "growthBytes") <= int("memory", "boundBytes"), "\(report)")
        #expect(int("files", "atEnd") <= int("files", "atStart") + Int64(SoakReport.fileTolerance), "\(report)")
    }

    @Test("the text report shows every figure and the verdict's reasons")
    func textReport() {
        var report = SoakReport()
        report.target = "the in-process server (virtual clock)"
        report.apps = [("em-multi", "{}")]
        report.loginsAccepted = 3
        report.messages.accepted = 5
        report.messages.lost = 2
        report.messages.examples = ["message 4 (id 9) to user #1, accepted at 12 ms, never arrived"]
        report.kicked = [206: 2]
        report.kicksWithoutClose = 1
        report.samples = [.init(atMs: 0, residentBytes: 20 << 20, openFiles: 10), .init(atMs: 1000, residentBytes: 90 << 20, openFiles: 10)]
        report.baselineBytes = 20 << 20
        report.finalBytes = 90 << 20
        report.memoryBoundBytes = 64 << 20
        report.filesAtStart = 10
        report.filesAtEnd = 13
        #expect(report.failures == [
            "2 messages lost", "1 kicks without their close", "memory grew 70.0 MiB, more than the bound of 64.0 MiB",
            "3 more open files after the run than before it",
        ])
        let text = report.text
        #expect(text.contains("  kicks     2 kicked frames: 0 followed by their close, 0 cut by a fault, 1 without their close"), "\(text)")
        #expect(text.contains("  example   message 4 (id 9) to user #1, accepted at 12 ms, never arrived"), "\(text)")
        #expect(text.contains("samples (s: MiB): 0 s 20.0, 1 s 90.0"), "\(text)")
        #expect(text.hasSuffix("  result    FAIL: " + report.failures.joined(separator: "; ")), "\(text)")
        report.memoryUnavailable = "process 7 cannot be read (/proc/7)"
        #expect(!report.failures.contains { $0.hasPrefix("memory") })
        #expect(report.text.contains("  memory    not available: process 7 cannot be read (/proc/7)"))
        #expect(report.json["memory"]?["available"]?.boolValue == false)
    }

    @Test("a soak of an external imock serve --clock virtual samples that process")
    func external() async throws {
        let server = try await IMockProcess.start(["--clock", "virtual", "--admin-secret", "soak-secret"])
        let report = try await SoakRun.run(SoakConfiguration(
            duration: .seconds(5), seed: 3, devices: 16,
            target: .external(url: "http://127.0.0.1:\(server.port)", adminSecret: "soak-secret", pid: nil)))
        try server.stop()
        #expect(report.passed, "\(report.text)")
        #expect(report.target == "imock serve at http://127.0.0.1:\(server.port) (pid \(server.pid))")
        #expect(report.memoryUnavailable == nil && report.samples.count >= 4, "\(report.text)")
        #expect(report.messages.lost == 0 && report.messages.accepted > 0, "\(report.text)")
    }

    @Test("a crash-restart soak kills its imock serve --data child twice and nothing accepted is lost")
    func crashRestart() async throws {
        let seconds = max(20, Self.seconds / 3)
        let output = try await ExternalCommand.run(
            try IMockProcess.binaryPath(), ["soak", "--seconds", String(seconds), "--seed", "21", "--crash-restart", "2", "--json"])
        let report = "\(output.stdout)\n\(output.stderr)"
        #expect(output.status == 0, "\(report)")
        let json = try JSONValue.parse(Array(output.stdout.utf8))
        func int(_ path: String...) -> Int64 { path.reduce(json as JSONValue?) { $0?[$1] }?.intValue ?? -1 }
        #expect(json["passed"]?.boolValue == true, "\(report)")
        #expect(int("control", "crashes") == 2, "\(report)")
        for figure in ["lost", "duplicated", "outOfOrder", "misdelivered"] { #expect(int("messages", figure) == 0, "\(figure): \(report)") }
        // Messages were waiting offline across the kills and came back from the store.
        #expect(int("messages", "deliveredOffline") > 0 && int("anomalies", "count") == 0, "\(report)")
        #expect(json["target"]?.stringValue?.contains("killed with SIGKILL and restarted 2 times") == true, "\(report)")
        #expect(json["memory"]?["available"]?.boolValue == true, "the child's /proc was sampled: \(report)")
    }

    @Test("--crash-restart is refused with --server and outside 0...10", arguments: [
        ["--crash-restart", "2", "--server", "http://127.0.0.1:1", "--admin-secret", "s"], ["--crash-restart", "-1"], ["--crash-restart", "11"],
    ])
    func crashRestartUsage(_ arguments: [String]) async throws {
        let output = try await ExternalCommand.run(try IMockProcess.binaryPath(), ["soak"] + arguments)
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("--crash-restart"), "\(output.stderr)")
    }

    @Test("an external server on a flowing clock is refused")
    func externalSystemClock() async throws {
        let server = try await IMockProcess.start(["--admin-secret", "soak-secret"])
        defer { try? server.stop() }
        await #expect(throws: SoakFailure.self) {
            try await SoakRun.run(SoakConfiguration(
                duration: .seconds(5), target: .external(url: "http://127.0.0.1:\(server.port)", adminSecret: "soak-secret", pid: nil)))
        }
    }
}
