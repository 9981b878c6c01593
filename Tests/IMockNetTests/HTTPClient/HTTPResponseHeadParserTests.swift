import Testing

@testable import IMockNet

@Suite("HTTP response head parser")
struct HTTPResponseHeadParserTests {
    static let response =
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection:Upgrade\r\n"
        + "Sec-WebSocket-Accept:  s3pPLMBiTxaQ9kYGzzhZRbK+xOo= \r\n\r\n"

    static let expectedHead = HTTPResponseHead(
        version: .http1_1, status: 101, reasonPhrase: "Switching Protocols",
        headers: [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
        ])

    @Test("A head and the frame bytes after it, in one read")
    func oneRead() throws {
        var parser = HTTPResponseHeadParser()
        let result = try #require(try parser.feed(Array(Self.response.utf8) + [0x81, 0x02, 0x68, 0x69]))
        #expect(result.head == Self.expectedHead)
        #expect(result.leftover == [0x81, 0x02, 0x68, 0x69])
        #expect(try parser.feed([0x81]) == nil)
    }

    @Test("Byte at a time: nil until the final LF")
    func byteAtATime() throws {
        var parser = HTTPResponseHeadParser()
        let bytes = Array(Self.response.utf8)
        for byte in bytes.dropLast() {
            #expect(try parser.feed([byte]) == nil)
        }
        let result = try #require(try parser.feed([bytes[bytes.count - 1]]))
        #expect(result.head == Self.expectedHead)
        #expect(result.leftover == [])
    }

    @Test("A status line without a reason phrase")
    func noReason() throws {
        var parser = HTTPResponseHeadParser()
        let result = try #require(try parser.feed(Array("HTTP/1.0 404\r\n\r\n".utf8)))
        #expect(result.head == HTTPResponseHead(version: .http1_0, status: 404, reasonPhrase: "", headers: [:]))
    }

    @Test("A head over the limit fails, with or without its terminator")
    func tooLarge() throws {
        var unterminated = HTTPResponseHeadParser()
        #expect(throws: HTTPResponseHeadParser.ParseError.headTooLarge(limit: 16384)) {
            try unterminated.feed([UInt8](repeating: 0x61, count: 16385))
        }
        var small = HTTPResponseHeadParser(maxHeadSize: 40)
        #expect(throws: HTTPResponseHeadParser.ParseError.headTooLarge(limit: 40)) {
            try small.feed(Array(Self.response.utf8))
        }
        let head = Array("HTTP/1.1 200 OK\r\n\r\n".utf8)  // 19 bytes
        var exact = HTTPResponseHeadParser(maxHeadSize: 19)
        #expect(try exact.feed(head) != nil)
        var oneShort = HTTPResponseHeadParser(maxHeadSize: 18)
        #expect(throws: HTTPResponseHeadParser.ParseError.headTooLarge(limit: 18)) { try oneShort.feed(head) }
    }

    @Test(
        "Malformed status lines",
        arguments: [
            "HTTP/1.1 10 OK\r\n\r\n", "HTTX/1.1 101 OK\r\n\r\n", "HTTP/1.1 101x\r\n\r\n", "HTTP/11 101 OK\r\n\r\n",
            "HTTP/1.1  101 OK\r\n\r\n", "HTTP/1.1 101 OK\nUpgrade: websocket\r\n\r\n", "\r\n\r\n",
        ])
    func malformedStatusLine(text: String) {
        var parser = HTTPResponseHeadParser()
        #expect(throws: HTTPResponseHeadParser.ParseError.malformedStatusLine) { try parser.feed(Array(text.utf8)) }
    }

    @Test(
        "Malformed header lines",
        arguments: [
            "NoColon", " folded: value", "Bad Name: x", ": empty name", "Name : space before colon",
            "A: b\rc",
        ])
    func malformedHeaderLine(line: String) {
        var parser = HTTPResponseHeadParser()
        let text = "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\n\(line)\r\n\r\n"
        #expect(throws: HTTPResponseHeadParser.ParseError.malformedHeaderLine) { try parser.feed(Array(text.utf8)) }
    }
}
