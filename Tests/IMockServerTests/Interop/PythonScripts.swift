import Foundation
import IMockTestSupport
import Testing

/// A Python client script of this folder run against a fresh server: `python3 SCRIPT PORT
/// ADMIN_SECRET`; its standard output (one line per observation). Requires python3 with
/// `websockets` (`.ci/run` installs it).
func runPythonClient(_ script: String, against fixture: SessionFixture) async throws -> String {
    try #require(
        (try? await ExternalCommand.run("python3", ["-c", "import websockets.sync.client"]))?.status == 0,
        "pip install websockets (.ci/run does)")
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(script).path
    let result = try await ExternalCommand.run("python3", [path, String(fixture.server.port), InProcessServer.adminSecret])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout
}
