import Foundation
import Testing
import IMockTestSupport

/// The imock protocol spoken by a client we did not write: Python's `websockets`, following
/// docs/PROTOCOL.md.
@Suite("Sessions with a Python websockets client")
struct PythonSessionTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("session_client.py").path

    @Test("login, ping, send to an offline user, kick 206 with the new device's info, offline delivery")
    func pythonDevice() async throws {
        try #require(
            (try? await ExternalCommand.run("python3", ["-c", "import websockets.sync.client"]))?.status == 0,
            "pip install websockets (.ci/run does)")
        let fixture = try SessionFixture()
        let result = try await ExternalCommand.run(
            "python3", [Self.script, String(fixture.server.port), InProcessServer.adminSecret])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                login login.ok android_phone-1
                ping pong
                send send.ok
                kicked 206 tablet hi
                closed 4206
                friend login.ok
                offline ['offline.start', 'message', 'offline.finish'] hello

                """)
        await fixture.stop()
    }
}
