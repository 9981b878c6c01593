import Testing
@testable import IMockNet

/// One malformed request and the exact error (and therefore status) it must produce.
struct MalformedRequestCase: CustomTestStringConvertible, Sendable {
    let input: String
    let error: HTTPParseError
    let status: Int
    var testDescription: String { "\(error.name): \(input.debugDescription)" }
}

@Suite("HTTPRequestParser: malformed requests")
struct HTTPRequestParserErrorTests {
    static let host = "Host: h\r\n"

    static let cases: [MalformedRequestCase] = [
        // Request line.
        MalformedRequestCase(input: "GET /\r\n\r\n", error: .malformedRequestLine, status: 400),
        MalformedRequestCase(input: "GET  / HTTP/1.1\r\n\r\n", error: .malformedRequestLine, status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1 x\r\n\r\n", error: .malformedRequestLine, status: 400),
        MalformedRequestCase(input: "GET /a b HTTP/1.1\r\n\r\n", error: .malformedRequestLine, status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\n\r\n", error: .malformedRequestLine, status: 400),
        MalformedRequestCase(input: "\n", error: .malformedRequestLine, status: 400),
        MalformedRequestCase(input: " / HTTP/1.1\r\n\r\n", error: .invalidMethod, status: 400),
        MalformedRequestCase(input: "GE(T / HTTP/1.1\r\n\r\n", error: .invalidMethod, status: 400),
        MalformedRequestCase(input: "GET\0 / HTTP/1.1\r\n\r\n", error: .invalidMethod, status: 400),
        MalformedRequestCase(input: "GET foo HTTP/1.1\r\n\r\n", error: .invalidTarget, status: 400),
        MalformedRequestCase(input: "GET * HTTP/1.1\r\n\r\n", error: .invalidTarget, status: 400),
        MalformedRequestCase(input: "CONNECT example.com:443 HTTP/1.1\r\n\r\n", error: .invalidTarget, status: 400),
        MalformedRequestCase(input: "GET http:///x HTTP/1.1\r\n\r\n", error: .invalidTarget, status: 400),
        MalformedRequestCase(input: "GET ftp://h/x HTTP/1.1\r\n\r\n", error: .invalidTarget, status: 400),
        MalformedRequestCase(input: "GET /caf\u{E9} HTTP/1.1\r\n\r\n", error: .invalidTarget, status: 400),
        MalformedRequestCase(input: "GET /a\u{7F} HTTP/1.1\r\n\r\n", error: .invalidTarget, status: 400),
        MalformedRequestCase(input: "GET / HTTX/1.1\r\n\r\n", error: .malformedVersion, status: 400),
        MalformedRequestCase(input: "GET / http/1.1\r\n\r\n", error: .malformedVersion, status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.10\r\n\r\n", error: .malformedVersion, status: 400),
        MalformedRequestCase(input: "GET / HTTP/2\r\n\r\n", error: .malformedVersion, status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\r\n\r\n", error: .malformedVersion, status: 400),
        MalformedRequestCase(input: "GET / HTTP/2.0\r\n\r\n", error: .unsupportedVersion(HTTPVersion(major: 2, minor: 0)), status: 505),
        MalformedRequestCase(input: "GET / HTTP/0.9\r\n\r\n", error: .unsupportedVersion(HTTPVersion(major: 0, minor: 9)), status: 505),
        MalformedRequestCase(input: "GET / HTTP/1.2\r\n\r\n", error: .unsupportedVersion(HTTPVersion(major: 1, minor: 2)), status: 505),
        // Header lines.
        MalformedRequestCase(input: "GET / HTTP/1.1\r\n\(host)X-A: 1\r\nno colon here\r\n\r\n", error: .headerLineWithoutColon(line: 3), status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\n\(host)X-A : 1\r\n\r\n", error: .whitespaceBeforeColon(line: 2), status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\nHost\t: h\r\n\r\n", error: .whitespaceBeforeColon(line: 1), status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\n\(host)X-A: 1\r\n  continued\r\n\r\n", error: .obsoleteLineFolding(line: 3), status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\n\tX-A: 1\r\n\r\n", error: .obsoleteLineFolding(line: 1), status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\n\(host)X-A: 1\n\r\n", error: .bareLineFeed(line: 2), status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\n\(host): 1\r\n\r\n", error: .invalidHeaderName(line: 2), status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\n\(host)X(A): 1\r\n\r\n", error: .invalidHeaderName(line: 2), status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\n\(host)X-A: a\0b\r\n\r\n", error: .invalidHeaderValue(line: 2), status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\n\(host)X-A: a\rb\r\n\r\n", error: .invalidHeaderValue(line: 2), status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\n\(host)X-A: a\u{7F}\r\n\r\n", error: .invalidHeaderValue(line: 2), status: 400),
        // Host.
        MalformedRequestCase(input: "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", error: .missingHost, status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n", error: .multipleHosts, status: 400),
        MalformedRequestCase(input: "GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", error: .multipleHosts, status: 400),
        // Framing.
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Content-Length: abc\r\n\r\n", error: .invalidContentLength, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Content-Length: -1\r\n\r\n", error: .invalidContentLength, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Content-Length: +1\r\n\r\n", error: .invalidContentLength, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Content-Length:\r\n\r\n", error: .invalidContentLength, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Content-Length: 1,\r\n\r\n", error: .invalidContentLength, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Content-Length: 99999999999999999999999\r\n\r\n", error: .invalidContentLength, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Content-Length: 1\r\nContent-Length: 2\r\n\r\nab", error: .conflictingContentLengths, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Content-Length: 1, 2\r\n\r\nab", error: .conflictingContentLengths, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", error: .contentLengthWithTransferEncoding, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", error: .contentLengthWithTransferEncoding, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: gzip\r\n\r\n", error: .unsupportedTransferEncoding, status: 501),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: gzip, chunked\r\n\r\n", error: .unsupportedTransferEncoding, status: 501),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked, gzip\r\n\r\n", error: .unsupportedTransferEncoding, status: 501),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", error: .unsupportedTransferEncoding, status: 501),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding:\r\n\r\n", error: .unsupportedTransferEncoding, status: 501),
        // Chunked bodies.
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\nxyz\r\n", error: .invalidChunkSize, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n\r\n", error: .invalidChunkSize, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n-1\r\n", error: .invalidChunkSize, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n3 x\r\n", error: .invalidChunkSize, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n3\n", error: .invalidChunkSize, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n3;a=\0\r\n", error: .invalidChunkSize, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n10000000000000000\r\n", error: .invalidChunkSize, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n", error: .missingChunkDataTerminator, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n3\r\nabc\rX", error: .missingChunkDataTerminator, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\nno colon\r\n\r\n", error: .malformedTrailer, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: a\0\r\n\r\n", error: .malformedTrailer, status: 400),
        MalformedRequestCase(input: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: a\n\r\n", error: .malformedTrailer, status: 400),
    ]

    @Test(arguments: cases)
    func malformedRequestGivesExactError(testCase: MalformedRequestCase) {
        #expect(httpParseError(testCase.input) == testCase.error)
        #expect(testCase.error.status == testCase.status)
        // The same error whether the bytes arrive together or one at a time.
        let byteByByte = httpEvents(wireBytes(testCase.input), byteByByte: true).filter { $0 != .expectContinue }
        #expect(byteByByte == [.error(testCase.error)])
    }

    @Test func parserStaysFailedAfterAnError() {
        var parser = HTTPRequestParser()
        parser.feed(wireBytes("GET / HTTX/1.1\r\n\r\n"))
        #expect(parser.next() == .error(.malformedVersion))
        #expect(parser.next() == .error(.malformedVersion))
        parser.feed(wireBytes("GET / HTTP/1.1\r\nHost: h\r\n\r\n"))
        #expect(parser.next() == .error(.malformedVersion))
        #expect(!parser.isIdle)
        #expect(parser.takeBufferedBytes() == [])
        #expect(parser.next() == .error(.malformedVersion))
    }

    @Test func errorAfterAGoodPipelinedRequest() {
        let events = httpEvents(wireBytes("GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/9.9\r\n\r\n"))
        #expect(events == [
            .request(HTTPRequest(method: "GET", target: "/a", headers: ["Host": "h"])),
            .error(.unsupportedVersion(HTTPVersion(major: 9, minor: 9))),
        ])
    }

    @Test func descriptionsNameTheProblem() {
        #expect(HTTPParseError.headerLineWithoutColon(line: 3).description == "header line 3 has no colon")
        #expect(HTTPParseError.unsupportedVersion(HTTPVersion(major: 2, minor: 0)).description
            == "HTTP/2.0 is not supported, only HTTP/1.0 and HTTP/1.1")
        #expect(HTTPParseError.bodyTooLarge.name == "body_too_large")
    }
}
