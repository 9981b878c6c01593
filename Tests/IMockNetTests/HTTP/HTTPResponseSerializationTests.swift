import IMockCommon
import Testing
@testable import IMockNet

@Suite("HTTPResponse serialization")
struct HTTPResponseSerializationTests {
    @Test func okWithBodyKeepAlive() {
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: wireBytes("hi"))
        #expect(response.serialized(keepAlive: true)
            == wireBytes("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi"))
    }

    @Test func closeAddsConnectionClose() {
        let response = HTTPResponse(status: 404)
        #expect(response.serialized(keepAlive: false)
            == wireBytes("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
    }

    @Test func http10KeepAliveSaysSo() {
        let response = HTTPResponse(status: 200, body: wireBytes("x"))
        #expect(response.serialized(version: .http1_0, keepAlive: true)
            == wireBytes("HTTP/1.0 200 OK\r\nContent-Length: 1\r\nConnection: keep-alive\r\n\r\nx"))
        #expect(response.serialized(version: .http1_0, keepAlive: false)
            == wireBytes("HTTP/1.0 200 OK\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx"))
    }

    @Test func headKeepsContentLengthButOmitsBody() {
        let response = HTTPResponse(status: 200, body: wireBytes("hello"))
        #expect(response.serialized(keepAlive: true, isHeadRequest: true)
            == wireBytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"))
    }

    @Test(arguments: [
        (101, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"),
        (204, "HTTP/1.1 204 No Content\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"),
        (304, "HTTP/1.1 304 Not Modified\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"),
    ])
    func noContentLengthOrBodyFor1xx204And304(status: Int, expected: String) {
        let response = HTTPResponse(status: status, headers: ["Upgrade": "websocket", "Connection": "Upgrade"], body: wireBytes("ignored"))
        #expect(response.serialized(keepAlive: true) == wireBytes(expected))
    }

    @Test func explicitFramingHeadersAreKept() {
        let chunked = HTTPResponse(status: 200, headers: ["Transfer-Encoding": "chunked"], body: wireBytes("0\r\n\r\n"))
        #expect(chunked.serialized(keepAlive: true) == wireBytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"))
        let explicit = HTTPResponse(status: 200, headers: ["content-length": "3"], body: wireBytes("abc"))
        #expect(explicit.serialized(keepAlive: true) == wireBytes("HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nabc"))
    }

    @Test func existingConnectionCloseIsNotRepeated() {
        let response = HTTPResponse(status: 400, headers: ["Connection": "close"])
        #expect(response.serialized(keepAlive: false)
            == wireBytes("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"))
    }

    @Test func headerValuesCannotSplitTheResponse() {
        let response = HTTPResponse(status: 302, headers: [
            "Location": "/a\r\nSet-Cookie: evil=1",
            "Bad\r\nName": "x",
            "X-Tab": "a\tb\0c",
        ])
        #expect(response.serialized(keepAlive: true) == wireBytes(
            "HTTP/1.1 302 Found\r\nLocation: /aSet-Cookie: evil=1\r\nX-Tab: a\tbc\r\nContent-Length: 0\r\n\r\n"))
    }

    @Test func unknownStatusHasEmptyReason() {
        #expect(HTTPResponse(status: 299).serialized(keepAlive: true) == wireBytes("HTTP/1.1 299 \r\nContent-Length: 0\r\n\r\n"))
    }

    @Test func continue100Bytes() {
        #expect(HTTPResponse.continue100 == wireBytes("HTTP/1.1 100 Continue\r\n\r\n"))
    }

    @Test(arguments: [
        (100, "Continue"), (101, "Switching Protocols"), (200, "OK"), (201, "Created"), (204, "No Content"),
        (301, "Moved Permanently"), (302, "Found"), (304, "Not Modified"), (400, "Bad Request"),
        (401, "Unauthorized"), (403, "Forbidden"), (404, "Not Found"), (405, "Method Not Allowed"),
        (408, "Request Timeout"), (411, "Length Required"), (413, "Content Too Large"), (414, "URI Too Long"),
        (415, "Unsupported Media Type"), (429, "Too Many Requests"), (431, "Request Header Fields Too Large"),
        (500, "Internal Server Error"), (501, "Not Implemented"), (503, "Service Unavailable"),
        (505, "HTTP Version Not Supported"),
    ])
    func reasonPhrases(code: Int, phrase: String) {
        #expect(HTTPStatus.reasonPhrase(for: code) == phrase)
    }
}

@Suite("HTTPResponse.transportError")
struct HTTPTransportErrorTests {
    @Test func jsonBodyStatusAndConnectionClose() {
        let response = HTTPResponse.transportError(.headerLineWithoutColon(line: 3))
        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"error":"header_line_without_colon","error_description":"header line 3 has no colon"}"#)
        #expect(response.headers["Connection"] == "close")
        #expect(response.headers["Content-Type"] == "application/json;charset=UTF-8")
        let wire = String(decoding: response.serialized(keepAlive: false), as: UTF8.self)
        #expect(wire.hasPrefix("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: 86\r\n\r\n{"))
        #expect(response.body.count == 86)
    }

    @Test(arguments: [
        (HTTPParseError.bodyTooLarge, 413), (.tooManyHeaders, 431), (.unsupportedTransferEncoding, 501),
        (.unsupportedVersion(HTTPVersion(major: 2, minor: 0)), 505), (.missingHost, 400),
    ])
    func statusComesFromTheError(error: HTTPParseError, status: Int) {
        #expect(HTTPResponse.transportError(error).status == status)
    }

    @Test func jsonEscaping() {
        #expect(JSONStringEscaping.quoted("a\"b\\c\n\r\t\u{08}\u{0C}\u{01}\u{1F}é") == #""a\"b\\c\n\r\t\b\f\u0001\u001fé""#)
    }
}
