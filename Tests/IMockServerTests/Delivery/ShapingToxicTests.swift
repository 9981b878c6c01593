import IMockServer
import IMockTestSupport
import Testing

/// The byte-shaping toxics (docs/CONTROL-API.md: `slicer`, `bandwidth`) act in `Connection`,
/// below every dialect: each dialect's device reads what they cut and pace as whole frames.
@Suite("Byte-shaping toxics, for every dialect", .serialized)
struct ShapingToxicTests {
    /// 5-byte slices a millisecond apart; and 20,000 bytes a second (slices of 200 bytes).
    static let shapes = [#""kind":"slicer","bytes":5,"delayMs":1"#, #""kind":"bandwidth","bytesPerSecond":20000"#]

    @Test(
        "a slicer or a bandwidth toxic cuts and paces what the server sends: the device reads its login answer and every offline message whole, in order",
        arguments: ContractDialect.allCases, Self.shapes)
    func shapedOfflineSync(_ dialect: ContractDialect, shape: String) async throws {
        let contract = DeliveryContractTests()
        let fixture = try contract.fixture(for: dialect)
        _ = try fixture.userToken("reader")
        let sender = try ContractDevice(
            dialect, port: fixture.server.port, user: "sender", token: try fixture.userToken("sender"), device: "s")
        let accepted = try contract.send(count: 5, of: String(repeating: "s", count: 300), from: sender)
        #expect(accepted.count == 5)
        let fault = try fixture.control("POST", "/_imock/faults", json: #"{\#(shape),"app":"acme#chat","user":"reader"}"#)
        try #require(fault.status == 200, "\(fault)")

        let reader = try ContractDevice(
            dialect, port: fixture.server.port, user: "reader", token: try fixture.userToken("reader", register: false),
            device: "shaped")
        for (opcode, payload) in dialect.pullOffline(user: "reader", from: "sender") {
            try reader.client.send(opcode: opcode, payload: payload)
        }
        let seen = try reader.read { $0.compactMap(\.messageID).count >= accepted.count }
        #expect(seen.close == nil, "closed with \(seen.close ?? 0)")
        #expect(seen.events.compactMap(\.messageID) == accepted)
        let listed = try fixture.control("GET", "/_imock/faults").body["faults"]?.array ?? []
        #expect(listed.first?["applied"]?.int == 1, "the toxic shaped the reader's connection: \(listed)")
        #expect(try fixture.control("DELETE", "/_imock/faults").status == 200)
        await fixture.stop()
    }
}
