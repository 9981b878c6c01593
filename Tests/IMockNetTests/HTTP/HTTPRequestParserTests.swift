import Testing
@testable import IMockNet

@Suite("HTTPRequestParser: well-formed requests")
struct HTTPRequestParserTests {
    @Test func parsesSimpleGet() throws {
        let events = httpEvents(wireBytes("GET /org/app/users?limit=10&q=a+b HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n"))
        try #require(events.count == 1)
        guard case .request(let request) = events[0] else { Issue.record("not a request: \(events)"); return }
        #expect(request.method == "GET")
        #expect(request.target == "/org/app/users?limit=10&q=a+b")
        #expect(request.path == "/org/app/users")
        #expect(request.queryValue("limit") == "10")
        #expect(request.queryValue("q") == "a b")
        #expect(request.version == .http1_1)
        #expect(request.headers == ["Host": "example.com", "Accept": "*/*"])
        #expect(request.body == [])
    }

    @Test func trimsOptionalWhitespaceAroundValuesAndKeepsInnerSpaces() {
        let events = httpEvents(wireBytes("GET / HTTP/1.1\r\nHost:example.com\r\nX-A: \t a  b \t\r\nX-Empty:\r\n\r\n"))
        #expect(events == [.request(HTTPRequest(
            method: "GET", target: "/", headers: ["Host": "example.com", "X-A": "a  b", "X-Empty": ""]))])
    }

    @Test func methodsAreCaseSensitiveTokens() {
        let events = httpEvents(wireBytes("get / HTTP/1.1\r\nHost: h\r\n\r\nM-SEARCH * HTTP/1.1\r\nHost: h\r\n\r\n"))
        #expect(events.count == 2)
        guard case .request(let lower) = events.first else { Issue.record("\(events)"); return }
        #expect(lower.method == "get")
        // `*` is only valid for OPTIONS.
        #expect(events.last == .error(.invalidTarget))
    }

    @Test func optionsAsteriskAndAbsoluteFormTargets() {
        let input = "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n"
            + "GET http://example.com:8080/a/b?c=d HTTP/1.1\r\nHost: example.com\r\n\r\n"
            + "GET HTTPS://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n"
            + "GET http://example.com?x=1 HTTP/1.1\r\nHost: example.com\r\n\r\n"
        let targets = httpEvents(wireBytes(input)).map { event -> String in
            guard case .request(let request) = event else { return "\(event)" }
            return request.target
        }
        #expect(targets == ["*", "/a/b?c=d", "/", "/?x=1"])
    }

    @Test func http10WithoutHostIsAccepted() {
        #expect(httpEvents(wireBytes("GET / HTTP/1.0\r\n\r\n")) == [.request(HTTPRequest(method: "GET", target: "/", version: .http1_0))])
    }

    @Test func skipsEmptyLinesBeforeTheRequestLine() {
        let events = httpEvents(wireBytes("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n"))
        #expect(events == [.request(HTTPRequest(method: "GET", target: "/", headers: ["Host": "h"]))])
    }

    @Test func tooManyEmptyLinesBeforeTheRequestLineAreRejected() {
        let input = String(repeating: "\r\n", count: HTTPRequestParser.maxLeadingEmptyLines + 1) + "GET / HTTP/1.1\r\nHost: h\r\n\r\n"
        #expect(httpParseError(input) == .malformedRequestLine)
    }

    @Test func pipelinedRequestsComeOutInOrder() {
        let input = "GET /one HTTP/1.1\r\nHost: h\r\n\r\n"
            + "POST /two HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
            + "PUT /three HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        let expected: [HTTPParseEvent] = [
            .request(HTTPRequest(method: "GET", target: "/one", headers: ["Host": "h"])),
            .request(HTTPRequest(method: "POST", target: "/two", headers: ["Host": "h", "Content-Length": "5"], body: wireBytes("hello"))),
            .request(HTTPRequest(method: "PUT", target: "/three", headers: ["Host": "h", "Transfer-Encoding": "chunked"], body: wireBytes("abc"))),
        ]
        #expect(httpEvents(wireBytes(input)) == expected)
        #expect(httpEvents(wireBytes(input), byteByByte: true) == expected)
    }

    static let requestsForSplitFeeding: [String] = [
        "GET / HTTP/1.1\r\nHost: h\r\n\r\n",
        "\r\nGET /a?b=c HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world",
        "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n",
        "POST /e HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok",
        "GET / HTTP/1.1\r\nHost: h\r\nBad Header: x\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX",
    ]

    @Test(arguments: requestsForSplitFeeding)
    func feedingOneByteAtATimeGivesTheSameEvents(request: String) {
        let atOnce = httpEvents(wireBytes(request))
        let byteByByte = httpEvents(wireBytes(request), byteByByte: true)
        #expect(!atOnce.isEmpty)
        // Fed at once the body is already there, so no 100-continue is owed.
        #expect(byteByByte.filter { $0 != .expectContinue } == atOnce)
    }

    @Test func keepAliveDefaultsPerVersion() throws {
        let cases: [(String, Bool)] = [
            ("GET / HTTP/1.1\r\nHost: h\r\n\r\n", true),
            ("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", false),
            ("GET / HTTP/1.1\r\nHost: h\r\nConnection: Keep-Alive, CLOSE\r\n\r\n", false),
            ("GET / HTTP/1.0\r\n\r\n", false),
            ("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", true),
            ("GET / HTTP/1.0\r\nConnection: keep-alive\r\nConnection: close\r\n\r\n", false),
        ]
        for (input, keepAlive) in cases {
            let events = httpEvents(wireBytes(input))
            guard case .request(let request) = events.first else { Issue.record("no request for \(input)"); continue }
            #expect(request.keepAlive == keepAlive, "\(input)")
        }
    }

    @Test func requestWithoutFramingHeadersHasEmptyBody() {
        // The bytes after the head are the next request, not a body.
        let events = httpEvents(wireBytes("POST /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n"))
        #expect(events == [
            .request(HTTPRequest(method: "POST", target: "/a", headers: ["Host": "h"])),
            .request(HTTPRequest(method: "GET", target: "/b", headers: ["Host": "h"])),
        ])
    }

    @Test func headerValuesMayHoldObsTextBytes() {
        let input = wireBytes("GET / HTTP/1.1\r\nHost: h\r\nX-Name: caf") + [0xC3, 0xA9] + wireBytes("\r\n\r\n")
        guard case .request(let request) = httpEvents(input).first else { Issue.record("no request"); return }
        #expect(request.headers["x-name"] == "café")
    }
}
