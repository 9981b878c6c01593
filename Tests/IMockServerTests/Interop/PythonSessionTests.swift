import Foundation
import Testing
import IMockTestSupport

/// The imock protocol spoken by a client we did not write: Python's `websockets`, following
/// docs/PROTOCOL.md.
@Suite("Sessions with a Python websockets client")
struct PythonSessionTests {
    @Test("login, ping, send to an offline user, kick 206 with the new device's info, offline delivery")
    func pythonDevice() async throws {
        let fixture = try SessionFixture()
        let output = try await runPythonClient("session_client.py", against: fixture)
        #expect(
            output == """
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
