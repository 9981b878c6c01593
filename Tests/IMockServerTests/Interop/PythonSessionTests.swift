import Foundation
import Testing
import IMockTestSupport

/// The imock protocol spoken by a client we did not write: Python's `websockets`, following
/// docs/PROTOCOL.md.
@Suite("Sessions with a Python websockets client")
struct PythonSessionTests {
    /// What session_client.py prints.
    static let session = """
        login login.ok android_phone-1
        ping pong
        send send.ok
        kicked 206 tablet hi
        closed 4206
        friend login.ok
        offline ['offline.start', 'message', 'offline.finish'] hello

        """

    @Test("login, ping, send to an offline user, kick 206 with the new device's info, offline delivery")
    func pythonDevice() async throws {
        let fixture = try SessionFixture()
        let output = try await runPythonClient("session_client.py", against: fixture)
        #expect(output == Self.session)
        await fixture.stop()
    }

    @Test("the same session with every server write cut into 3-byte slices a millisecond apart (a slicer fault): websockets reassembles the frames")
    func pythonDeviceReadsSlicedFrames() async throws {
        let fixture = try SessionFixture()
        let slicer = try fixture.control("POST", "/_imock/faults", json: #"{"kind":"slicer","app":"acme#chat","bytes":3,"delayMs":1}"#)
        #expect(slicer.status == 200, "\(slicer)")
        let output = try await runPythonClient("session_client.py", against: fixture)
        #expect(output == Self.session)
        await fixture.stop()
    }
}
