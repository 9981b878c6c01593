import IMockNet
import IMockTestSupport
import Testing

/// A test that throws before stopping its server must not take the other tests down with it.
@Suite("A fixture dropped without stop")
struct AbandonedFixtureTests {
    /// The fixture goes while a device is logged in (as when a test throws), then the device
    /// closes: the server's loop stops, and the close reaches a server that is still alive
    /// instead of aborting the process on its freed `unowned` reference.
    @Test("stops its server's loop and keeps the server alive until then")
    func droppedFixtureStopsItsLoop() async throws {
        let (loop, clientLoop, client) = try await Self.loggedInDeviceOfADroppedFixture()
        client.socket.close(code: 1000)
        defer { clientLoop.stop() }
        let stopped = await happens(within: .seconds(10)) {
            await loop.waitUntilStopped()
            return true
        }
        #expect(stopped, "the dropped fixture's loop still runs")
    }

    /// A device logged in to a fixture that is gone when this returns, the fixture's loop and the
    /// device's.
    private static func loggedInDeviceOfADroppedFixture() async throws -> (EventLoop, EventLoop, ProtocolClient) {
        let fixture = try FaultFixture()
        let client = try await fixture.device("alice")
        return (fixture.loop, fixture.clientLoop, client)
    }
}
