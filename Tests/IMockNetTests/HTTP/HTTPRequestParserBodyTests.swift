import Testing
@testable import IMockNet

@Suite("HTTPRequestParser: bodies")
struct HTTPRequestParserBodyTests {
    @Test func contentLengthBodyWaitsForAllBytes() {
        var parser = HTTPRequestParser()
        parser.feed(wireBytes("POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n01234"))
        #expect(parser.next() == .needMore)
        #expect(!parser.isIdle)
        parser.feed(wireBytes("56789GET"))
        #expect(parser.next() == .request(HTTPRequest(
            method: "POST", target: "/p", headers: ["Host": "h", "Content-Length": "10"], body: wireBytes("0123456789"))))
        #expect(parser.next() == .needMore)
        #expect(parser.hasPartialHead)
    }

    @Test func identicalContentLengthsAreAccepted() {
        let events = httpEvents(wireBytes("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2, 2\r\nContent-Length: 02\r\n\r\nok"))
        guard case .request(let request) = events.first else { Issue.record("\(events)"); return }
        #expect(request.body == wireBytes("ok"))
    }

    @Test func chunkedWithExtensionsAndTrailers() {
        let input = "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n"
            + "5;name=value;flag\r\nhello\r\n"
            + "1 ; spaced\r\n,\r\n"
            + "A\r\n0123456789\r\n"
            + "0;last\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n"
        let expected = HTTPParseEvent.request(HTTPRequest(
            method: "POST", target: "/c", headers: ["Host": "h", "Transfer-Encoding": "Chunked"],
            body: wireBytes("hello,0123456789")))
        #expect(httpEvents(wireBytes(input)) == [expected])
        #expect(httpEvents(wireBytes(input), byteByByte: true) == [expected])
    }

    @Test func chunkedBodyWithOnlyTheLastChunkIsEmpty() {
        let events = httpEvents(wireBytes("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"))
        #expect(events == [.request(HTTPRequest(
            method: "POST", target: "/", headers: ["Host": "h", "Transfer-Encoding": "chunked"]))])
    }

    @Test func contentLengthOverTheLimitFailsBeforeTheBody() {
        var parser = HTTPRequestParser(limits: HTTPLimits(maxBodyBytes: 100))
        parser.feed(wireBytes("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 101\r\n\r\n"))
        #expect(parser.next() == .error(.bodyTooLarge))
        #expect(HTTPParseError.bodyTooLarge.status == 413)
    }

    @Test func contentLengthAtTheLimitIsAccepted() {
        let body = String(repeating: "x", count: 100)
        let events = httpEvents(
            wireBytes("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\n\(body)"), limits: HTTPLimits(maxBodyBytes: 100))
        guard case .request(let request) = events.first else { Issue.record("\(events)"); return }
        #expect(request.body.count == 100)
    }

    @Test func chunkedOverTheLimitFailsAsSoonAsTheSumPassesIt() {
        var parser = HTTPRequestParser(limits: HTTPLimits(maxBodyBytes: 10))
        parser.feed(wireBytes("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n"))
        #expect(parser.next() == .needMore)
        // The size line of the chunk that would pass the limit is enough; its data never arrives.
        parser.feed(wireBytes("5\r\n"))
        #expect(parser.next() == .error(.bodyTooLarge))
    }

    @Test func chunkedExactlyAtTheLimitIsAccepted() {
        let events = httpEvents(
            wireBytes("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n4\r\nghij\r\n0\r\n\r\n"),
            limits: HTTPLimits(maxBodyBytes: 10))
        guard case .request(let request) = events.first else { Issue.record("\(events)"); return }
        #expect(request.body == wireBytes("abcdefghij"))
    }

    @Test func hugeHeaderIsRejectedBeforeTheHeadEnds() {
        let limits = HTTPLimits(maxHeaderBytes: 1024)
        var parser = HTTPRequestParser(limits: limits)
        parser.feed(wireBytes("GET / HTTP/1.1\r\nHost: h\r\nX-Big: "))
        #expect(parser.next() == .needMore)
        parser.feed([UInt8](repeating: UInt8(ascii: "a"), count: 2000))
        // No CRLF has arrived for this line, and no CRLFCRLF at all.
        #expect(parser.next() == .error(.headerSectionTooLarge))
        #expect(HTTPParseError.headerSectionTooLarge.status == 431)
    }

    @Test func headerSectionLimitCountsEveryLine() {
        // Request line (14+2) + "Host: h" (7+2) + final CRLF (2) = 27 bytes.
        let exact = "GET / HTTP/1.1\r\nHost: h\r\n\r\n"
        #expect(httpEvents(wireBytes(exact), limits: HTTPLimits(maxHeaderBytes: 27)).count == 1)
        #expect(httpParseError(exact, limits: HTTPLimits(maxHeaderBytes: 27)) == nil)
        #expect(httpParseError(exact, limits: HTTPLimits(maxHeaderBytes: 26)) == .headerSectionTooLarge)
        let manySmall = "GET / HTTP/1.1\r\nHost: h\r\n" + String(repeating: "A: b\r\n", count: 200) + "\r\n"
        #expect(httpParseError(manySmall, limits: HTTPLimits(maxHeaderBytes: 1000, maxHeaderCount: 1000)) == .headerSectionTooLarge)
    }

    @Test func tooManyHeadersIsRejectedAtTheFirstExtraField() {
        var parser = HTTPRequestParser(limits: HTTPLimits(maxHeaderCount: 3))
        parser.feed(wireBytes("GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\n"))
        #expect(parser.next() == .needMore)
        parser.feed(wireBytes("C: 3\r\n"))
        #expect(parser.next() == .error(.tooManyHeaders))
        #expect(HTTPParseError.tooManyHeaders.status == 431)
    }

    /// One limit for the whole head: a request line alone over it is 431 like a large head, never
    /// 414, and a request line up to the head budget (minus the closing CRLF) is accepted.
    @Test func requestLineCountsAgainstTheHeadLimit() {
        let limits = HTTPLimits(maxHeaderBytes: 64)
        let longPath = String(repeating: "a", count: 40)
        #expect(httpParseError("GET /\(longPath) HTTP/1.1\r\nHost: h\r\n\r\n", limits: limits) == .headerSectionTooLarge)
        let fitting = String(repeating: "a", count: 30)  // 45-byte line + 9 + 2 + 2 = 58 bytes
        #expect(httpParseError("GET /\(fitting) HTTP/1.1\r\nHost: h\r\n\r\n", limits: limits) == nil)
        var parser = HTTPRequestParser(limits: limits)
        parser.feed(wireBytes("GET /" + String(repeating: "b", count: 50)))
        #expect(parser.next() == .needMore)
        parser.feed(wireBytes(String(repeating: "b", count: 20)))
        #expect(parser.next() == .error(.headerSectionTooLarge))
        #expect(HTTPParseError.headerSectionTooLarge.status == 431)
    }

    @Test func trailersCountAgainstTheHeaderLimits() {
        let head = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
        let manyTrailers = head + String(repeating: "T: 1\r\n", count: 4) + "\r\n"
        #expect(httpParseError(manyTrailers, limits: HTTPLimits(maxHeaderCount: 3)) == .tooManyHeaders)
        let bigTrailer = head + "T: " + String(repeating: "x", count: 200)
        #expect(httpParseError(bigTrailer, limits: HTTPLimits(maxHeaderBytes: 100)) == .headerSectionTooLarge)
    }
}

@Suite("HTTPRequestParser: Expect: 100-continue")
struct HTTPRequestParserExpectContinueTests {
    static let head = "POST /upload HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 4\r\n\r\n"

    @Test func continueIsOwedOnceBeforeTheBody() {
        var parser = HTTPRequestParser()
        parser.feed(wireBytes(Self.head))
        #expect(parser.next() == .expectContinue)
        #expect(parser.next() == .needMore)
        parser.feed(wireBytes("ab"))
        #expect(parser.next() == .needMore)
        parser.feed(wireBytes("cd"))
        #expect(parser.next() == .request(HTTPRequest(
            method: "POST", target: "/upload",
            headers: ["Host": "h", "Expect": "100-Continue", "Content-Length": "4"], body: wireBytes("abcd"))))
        #expect(parser.next() == .needMore)
        #expect(parser.isIdle)
    }

    @Test func noContinueWhenTheBodyIsAlreadyHere() {
        var parser = HTTPRequestParser()
        parser.feed(wireBytes(Self.head + "abcd"))
        guard case .request = parser.next() else { Issue.record("expected the request"); return }
        #expect(parser.next() == .needMore)
    }

    @Test func noContinueWhenThereIsNoBody() {
        let events = httpEvents(wireBytes("GET / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n"))
        #expect(events == [.request(HTTPRequest(method: "GET", target: "/", headers: ["Host": "h", "Expect": "100-continue"]))])
    }

    @Test func noContinueForHTTP10() {
        var parser = HTTPRequestParser()
        parser.feed(wireBytes("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n"))
        #expect(parser.next() == .needMore)
    }

    @Test func tooLargeBodyGivesAnErrorInsteadOfContinue() {
        var parser = HTTPRequestParser(limits: HTTPLimits(maxBodyBytes: 3))
        parser.feed(wireBytes(Self.head))
        #expect(parser.next() == .error(.bodyTooLarge))
    }

    @Test func chunkedBodyAlsoGetsContinue() {
        var parser = HTTPRequestParser()
        parser.feed(wireBytes("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n"))
        #expect(parser.next() == .expectContinue)
        parser.feed(wireBytes("2\r\nhi\r\n0\r\n\r\n"))
        guard case .request(let request) = parser.next() else { Issue.record("expected the request"); return }
        #expect(request.body == wireBytes("hi"))
    }
}
