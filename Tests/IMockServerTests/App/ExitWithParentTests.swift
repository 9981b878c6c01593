import Foundation
import IMockCommon
import IMockTestSupport
import Testing

/// `imock serve --exit-with-parent`: a server whose starter was killed does not live on.
@Suite("imock serve --exit-with-parent")
struct ExitWithParentTests {
    /// Whether `pid` has ended (gone, or a zombie nobody reaped yet).
    static func ended(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    /// A shell starts the server in the background, waits for its `listening` line, prints its
    /// pid and ends: the server's parent is gone.
    static func serverOrphanedByItsParent(_ arguments: String) throws -> Int32 {
        let directory = NSTemporaryDirectory() + "imock-parent-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = #""$0" serve --port 0 \#(arguments) > "$1" 2>&1 & echo $!; while ! grep -q listening "$1"; do sleep 0.05; done"#
        let shell = try SpawnedProcess.spawn("/bin/sh", ["-c", script, try IMockProcess.binaryPath(), directory + "/log"])
        let output = String(decoding: readAll(shell.stdout!), as: UTF8.self)
        _ = shell.wait()
        return try #require(Int32(output.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("the server stops when the process that started it is gone; without the flag it stays")
    func stopsWithItsParent() async throws {
        let watched = try Self.serverOrphanedByItsParent("--exit-with-parent")
        let kept = try Self.serverOrphanedByItsParent("")
        defer { kill(kept, SIGKILL) }
        var waited = 0
        while !Self.ended(watched), waited < 200 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        #expect(Self.ended(watched), "the orphaned server with --exit-with-parent still runs after 10 s")
        #expect(!Self.ended(kept), "the orphaned server without the flag should still run")
        if !Self.ended(watched) { kill(watched, SIGKILL) }
    }
}
