import Testing

@testable import IMockNet

/// One malformed input for the frame parser and the close code it must produce.
struct ParserErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var role: WebSocketRole
    var bytes: [UInt8]
    var maxFrameSize = 1 << 20
    var code: WebSocketCloseCode
    var testDescription: String { name }
}

@Suite("WebSocket frame parser errors")
struct WebSocketFrameParserErrorTests {
    static let cases: [ParserErrorCase] = [
        ParserErrorCase(name: "RSV1 set", role: .client, bytes: [0xC1, 0x00], code: .protocolError),
        ParserErrorCase(name: "RSV2 set", role: .client, bytes: [0xA1, 0x00], code: .protocolError),
        ParserErrorCase(name: "RSV3 set", role: .client, bytes: [0x91, 0x00], code: .protocolError),
        ParserErrorCase(name: "opcode 3", role: .client, bytes: [0x83, 0x00], code: .protocolError),
        ParserErrorCase(name: "opcode 7", role: .client, bytes: [0x87, 0x00], code: .protocolError),
        ParserErrorCase(name: "opcode 11", role: .client, bytes: [0x8B, 0x00], code: .protocolError),
        ParserErrorCase(name: "opcode 15", role: .client, bytes: [0x8F, 0x00], code: .protocolError),
        ParserErrorCase(name: "server gets an unmasked frame", role: .server, bytes: [0x81, 0x00], code: .protocolError),
        ParserErrorCase(
            name: "client gets a masked frame", role: .client, bytes: [0x81, 0x80, 1, 2, 3, 4], code: .protocolError),
        ParserErrorCase(name: "ping without FIN", role: .client, bytes: [0x09, 0x00], code: .protocolError),
        ParserErrorCase(name: "close without FIN", role: .client, bytes: [0x08, 0x00], code: .protocolError),
        ParserErrorCase(
            name: "ping with 126 bytes", role: .client, bytes: [0x89, 0x7E, 0x00, 0x7E] + WS.payload(126),
            code: .protocolError),
        ParserErrorCase(
            name: "pong with 64-bit length", role: .client, bytes: [0x8A, 0x7F, 0, 0, 0, 0, 0, 0, 0, 1],
            code: .protocolError),
        ParserErrorCase(
            name: "16-bit length holding 125", role: .client, bytes: [0x82, 0x7E, 0x00, 0x7D] + WS.payload(125),
            code: .protocolError),
        ParserErrorCase(
            name: "64-bit length holding 65535", role: .client,
            bytes: [0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + WS.payload(65535), code: .protocolError),
        ParserErrorCase(
            name: "64-bit length with the top bit set", role: .client,
            bytes: [0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], code: .protocolError),
        ParserErrorCase(
            name: "frame over maxFrameSize (7-bit)", role: .client, bytes: [0x82, 0x0B], maxFrameSize: 10,
            code: .messageTooBig),
        ParserErrorCase(
            name: "frame over maxFrameSize (16-bit), header only", role: .client, bytes: [0x82, 0x7E, 0x01, 0x00],
            maxFrameSize: 255, code: .messageTooBig),
        ParserErrorCase(
            name: "frame over maxFrameSize (64-bit), header only", role: .server,
            bytes: [0x82, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], code: .messageTooBig),
    ]

    @Test("Each malformed frame fails with its close code", arguments: cases)
    func rejects(errorCase: ParserErrorCase) {
        let error = WS.parseError(errorCase.bytes, role: errorCase.role, maxFrameSize: errorCase.maxFrameSize)
        #expect(error?.closeCode == errorCase.code)
        #expect((error?.reason.utf8.count ?? 0) <= 123)
    }

    @Test("A frame of exactly maxFrameSize is accepted")
    func exactlyAtLimit() throws {
        let frames = try WS.parseAll([0x82, 0x0A] + WS.payload(10), role: .client, maxFrameSize: 10)
        #expect(frames == [WebSocketFrame(opcode: .binary, payload: WS.payload(10))])
    }

    @Test("Errors are found from the header alone, before the payload")
    func errorsFromHeaderOnly() {
        var parser = WebSocketFrameParser(role: .client, maxFrameSize: 1000)
        parser.feed([0x82, 0x7E, 0x10, 0x00])
        #expect(throws: WebSocketProtocolError(closeCode: .messageTooBig, reason: "frame payload of 4096 bytes exceeds 1000")) {
            try parser.next()
        }
    }

    @Test("After an error the parser keeps failing with the same error")
    func stickyFailure() {
        var parser = WebSocketFrameParser(role: .server, maxFrameSize: 1000)
        parser.feed([0x81, 0x00])
        let first = #expect(throws: WebSocketProtocolError.self) { try parser.next() }
        parser.feed(WS.clientFrame(0x1, [0x41]))
        let second = #expect(throws: WebSocketProtocolError.self) { try parser.next() }
        #expect(first == second)
        #expect(first?.reason == "unmasked frame from client")
    }

    @Test("Frames before a malformed one are still returned")
    func framesBeforeError() throws {
        var parser = WebSocketFrameParser(role: .client, maxFrameSize: 1000)
        parser.feed([0x81, 0x01, 0x41, 0xC1, 0x00])
        #expect(try parser.next() == WebSocketFrame(opcode: .text, payload: [0x41]))
        #expect(throws: WebSocketProtocolError.self) { try parser.next() }
    }
}
