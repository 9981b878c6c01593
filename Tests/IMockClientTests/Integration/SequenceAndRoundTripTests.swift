import IMockClient
import IMockCore
import IMockNet
import Testing

/// The harness hooks: one callback sequence across clients, and the settle round trip.
@Suite("Client sequence and round trip")
struct SequenceAndRoundTripTests {
    @Test("clients sharing a sequencer number their records in one order; roundTrip answers only when connected")
    func sequenceAndRoundTrip() async throws {
        let server = try ClientTestServer()
        let token = try server.userToken("alice")
        let loop = try EventLoop()
        loop.start()
        let sequencer = CallbackSequencer()
        let phone = try IMClient(
            options: try testOptions(profile: .easemob), host: "127.0.0.1", port: server.port, loop: loop)
        let pad = try IMClient(
            options: try testOptions(profile: .easemob, uuid: "dev2"), endpoint: ServerEndpoint(host: "127.0.0.1", port: server.port),
            loop: loop, sequencer: sequencer)
        let tablet = try IMClient(
            options: try testOptions(profile: .easemob, uuid: "dev3"), endpoint: ServerEndpoint(host: "127.0.0.1", port: server.port),
            loop: loop, sequencer: sequencer)
        #expect(await pad.roundTrip() == false)
        try await pad.login(userId: "alice", token: token)
        try await tablet.login(userId: "alice", token: token)
        try await phone.login(userId: "alice", token: token)
        #expect(await pad.roundTrip())
        #expect(await tablet.roundTrip())
        let numbers = (pad.log.records + tablet.log.records).map(\.sequence).sorted()
        #expect(numbers == Array(1...UInt64(numbers.count)))
        #expect(pad.log.records.map(\.sequence).max()! < tablet.log.records.map(\.sequence).min()!)
        #expect(phone.log.records.allSatisfy { $0.sequence == 0 })
        #expect(sequencer.last == UInt64(numbers.count))
        try await pad.logout(unbindDeviceToken: false)
        #expect(await pad.roundTrip() == false)
        for client in [phone, pad, tablet] { await client.shutdown() }
        loop.stop()
        await loop.waitUntilStopped()
        await server.stop()
    }
}
