import Testing
@testable import IMockNet

/// The HTTP client's pure parts: server URLs, the requests it writes, the responses it reads.
@Suite("HTTP client: endpoints, requests, responses")
struct HTTPClientTests {
    static let urls: [(String, ServerEndpoint)] = [
        ("ws://127.0.0.1:5280/ws", ServerEndpoint(host: "127.0.0.1", port: 5280)),
        ("ws://localhost:8080", ServerEndpoint(host: "localhost", port: 8080)),
        ("wss://im.example.com/", ServerEndpoint(host: "im.example.com", port: 443, secure: true)),
        ("http://[::1]:9000/socket?x=1", ServerEndpoint(host: "::1", port: 9000, path: "/socket")),
        ("WS://h", ServerEndpoint(host: "h", port: 80)),
    ]

    @Test("server URLs", arguments: urls)
    func parsesURL(url: String, expected: ServerEndpoint) throws {
        #expect(try ServerEndpoint(url: url) == expected)
    }

    static let badURLs: [(String, ServerURLError)] = [
        ("ftp://h/ws", .unsupportedScheme("ftp://h/ws")),
        ("ws://:80/ws", .invalidHost("ws://:80/ws")),
        ("ws://user@h/ws", .invalidHost("ws://user@h/ws")),
        ("ws://[::1/ws", .invalidHost("ws://[::1/ws")),
        ("ws://h:0/ws", .invalidPort("0")),
        ("ws://h:70000/ws", .invalidPort("70000")),
        ("ws://h:x/ws", .invalidPort("x")),
    ]

    @Test("malformed server URLs are refused with the reason", arguments: badURLs)
    func refusesURL(url: String, error: ServerURLError) {
        #expect(throws: error) { try ServerEndpoint(url: url) }
    }

    @Test("requests: the line, Host, headers in order, the JSON body's headers, Connection: close, the body")
    func requestBytes() {
        #expect(HTTPClientRequest.bytes("GET", "/_imock/health", host: "127.0.0.1") == Array("GET /_imock/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let post = HTTPClientRequest.bytes(
            "POST", "/a/b/users", host: "h:1", headers: [("Accept", "application/json")] + HTTPClientRequest.bearer("t"),
            jsonBody: Array("{}".utf8), closeAfterAnswer: true)
        let expected = "POST /a/b/users HTTP/1.1\r\nHost: h:1\r\nAccept: application/json\r\nAuthorization: Bearer t\r\n"
            + "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
        #expect(post == Array(expected.utf8))
        #expect(HTTPClientRequest.bearer(nil).isEmpty)
    }

    @Test("HTTP responses: Content-Length, chunked, truncated")
    func httpParse() throws {
        let plain = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}".utf8)
        let parsed = try HTTPFetchParsing.parse(plain).get()
        #expect(parsed.status == 200)
        #expect(parsed.body == Array("{}".utf8))
        let chunked = Array("HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n".utf8)
        let dechunked = try HTTPFetchParsing.parse(chunked).get()
        #expect(dechunked.status == 404)
        #expect(dechunked.body == Array("{}".utf8))
        let short = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{}".utf8)
        #expect(throws: HTTPFetchError.malformedResponse("Content-Length 5 does not match the body")) { try HTTPFetchParsing.parse(short).get() }
    }
}
