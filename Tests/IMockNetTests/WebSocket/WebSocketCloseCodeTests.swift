import Testing

@testable import IMockNet

@Suite("WebSocketCloseCode")
struct WebSocketCloseCodeTests {
    @Test("RFC constants have their numbers")
    func constants() {
        let expected: [(WebSocketCloseCode, UInt16)] = [
            (.normalClosure, 1000), (.goingAway, 1001), (.protocolError, 1002), (.unsupportedData, 1003),
            (.noStatusReceived, 1005), (.abnormalClosure, 1006), (.invalidFramePayloadData, 1007),
            (.policyViolation, 1008), (.messageTooBig, 1009), (.mandatoryExtension, 1010),
            (.internalError, 1011),
        ]
        for (code, raw) in expected { #expect(code.rawValue == raw) }
    }

    @Test(
        "Codes valid on the wire",
        arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4108, 4206, 4999] as [UInt16])
    func valid(raw: UInt16) {
        #expect(WebSocketCloseCode(raw).isValidOnWire)
    }

    @Test(
        "Codes invalid on the wire",
        arguments: [0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] as [UInt16])
    func invalid(raw: UInt16) {
        #expect(!WebSocketCloseCode(raw).isValidOnWire)
    }
}
