import IMockCommon
import IMockServer
import IMockTestSupport
import Testing

/// Fault triggers (docs/CONTROL-API.md, "Triggers") in every dialect: the kind of frame comes
/// from what the engine or the dialect's pull answer sent, so `on` means the same everywhere.
@Suite("Fault triggers, for every dialect", .serialized)
struct FaultTriggerTests {
    /// What cuts the reader's connection at the offline sync: drops on each trigger, and the
    /// limitData toxic (1 byte, so the first page passes it), each as the fault's JSON members.
    static let cuts = [#""kind":"drop","on":"offlineSync""#, #""kind":"drop","on":"syncPage""#, #""kind":"limitData","bytes":1,"on":"syncPage""#]

    @Test(
        "a drop at the first frame of the offline sync, or at its first page, or a limitData toxic passed there, loses nothing: the messages wait for the next login",
        arguments: ContractDialect.allCases, Self.cuts)
    func dropDuringTheOfflineSync(_ dialect: ContractDialect, cut: String) async throws {
        let contract = DeliveryContractTests()
        let fixture = try contract.fixture(for: dialect)
        _ = try fixture.userToken("reader")
        let sender = try ContractDevice(
            dialect, port: fixture.server.port, user: "sender", token: try fixture.userToken("sender"), device: "s")
        let accepted = try contract.send(count: 5, of: "offline", from: sender)
        #expect(accepted.count == 5)
        let fault = try fixture.control(
            "POST", "/_imock/faults", json: #"{\#(cut),"app":"acme#chat","user":"reader"}"#)
        try #require(fault.status == 200, "\(fault)")
        #expect(fault.body["affected"]?.array?.isEmpty == true, "it waits for its trigger")

        let reader = try ContractDevice(
            dialect, port: fixture.server.port, user: "reader", token: try fixture.userToken("reader", register: false),
            device: "cut")
        for (opcode, payload) in dialect.pullOffline(user: "reader", from: "sender") {
            try reader.client.send(opcode: opcode, payload: payload)
        }
        let seen = try reader.read { _ in false }
        #expect(seen.close == nil, "dropped without a close frame")
        #expect(seen.events.compactMap(\.messageID).isEmpty, "the drop came before the first message")
        if cut.contains("limitData") {
            // A toxic stays until cleared (a triggered drop ends once it acted).
            #expect(try fixture.control("DELETE", "/_imock/faults").status == 200)
        }
        try await contract.eventuallyNoFaults(fixture)
        try await contract.eventuallyLoggedOut(fixture, user: "reader")
        #expect(try await contract.offlineSync(fixture, user: "reader", dialect) == accepted)
        await fixture.stop()
    }
}
