import IMockCore
import IMockWire
import Testing
@testable import IMockClient

@Suite("Client wires: each dialect to and from the state machine's words")
struct ClientWireTests {
    @Test("imock JSON: the state machine's login is the documented frame")
    func jsonLoginBytes() {
        let output = ImockJSONClientWire().encode(.login("1", StateMachineTransitionTests.aliceLogin))
        #expect(
            output.send == [
                .text(
                    #"{"op":"login","id":"1","appKey":"acme#chat","user":"alice","token":"t1","device":{"os":"ios","name":"phone","uuid":"dev1"},"sync":["contacts"]}"#
                )
            ])
    }

    @Test("imock JSON: every request is the client frame the server reads back", arguments: FrameCodecTests.clientFrames)
    func jsonRequests(frame: ClientFrame) {
        let request = ImockJSONDialect.command(frame)
        #expect(ClientFrame(request) == frame)
        #expect(ImockJSONClientWire().encode(request).send == [.text(frame.text)])
    }

    @Test("imock JSON: every server frame says one input, and that input is the frame", arguments: FrameCodecTests.serverFrames)
    func jsonInputs(frame: ServerFrame) {
        let output = ImockJSONClientWire().decode(.text(frame.text))
        #expect(output.inputs == [.success(ServerInput(frame))])
        #expect(ServerFrame(ServerInput(frame)) == frame)
    }

    @Test("imock JSON: text that is no frame and binary messages are unreadable")
    func jsonUnreadable() {
        let wire = ImockJSONClientWire()
        for message in [WireMessage.text(#"{"op":"dance"}"#), .binary([1])] {
            guard case .failure = wire.decode(message).inputs.first else {
                Issue.record("\(message) was read")
                continue
            }
        }
    }

    @Test(
        "every dialect closes a session end with 4000 + code (4999: OpenIM 2002); other closes are drops",
        arguments: ClientTransport.allCases)
    func closeMeanings(transport: ClientTransport) {
        let wire = transport.makeWire()
        #expect(wire.sessionEndCode(ofClose: 4206) == 206)
        #expect(wire.sessionEndCode(ofClose: 4108) == 108)
        #expect(wire.sessionEndCode(ofClose: 4999) == OpenIMKickCode.kickOnlineMessage.rawValue)
        for drop: UInt16? in [nil, 1000, 1001, 1006, 1008, 3999] { #expect(wire.sessionEndCode(ofClose: drop) == nil) }
    }

    @Test("msync and OpenIM answer an ack themselves and refuse what they cannot carry", arguments: [ClientTransport.msync, .openIM])
    func answeredLocally(transport: ClientTransport) {
        let wire = transport.makeWire()
        let acked = wire.encode(.ack("5", messageId: "17"))
        #expect(acked.send.isEmpty && acked.inputs == [.success(.reply("5", .acked))])
        let devices = wire.encode(.devices("6"))
        guard case .success(.reply(let tag, .refused(_, nil))) = devices.inputs.first, tag == "6", devices.send.isEmpty else {
            Issue.record("devices: \(devices)")
            return
        }
    }
}
