import Testing
@testable import IMockNet

@Suite("HTTPRequestParser: buffering")
struct HTTPRequestParserBufferTests {
    static let upgrade = "GET /ws HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"

    @Test func takeBufferedBytesAfterAnUpgradeRequest() {
        var parser = HTTPRequestParser()
        let frame: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58, 0x0D, 0x0A]
        parser.feed(wireBytes(Self.upgrade) + frame)
        guard case .request(let request) = parser.next() else { Issue.record("expected the upgrade request"); return }
        #expect(request.headers.tokens(for: "Upgrade") == ["websocket"])
        #expect(parser.takeBufferedBytes() == frame)
        #expect(parser.isIdle)
        #expect(parser.takeBufferedBytes() == [])
    }

    @Test func takeBufferedBytesIncludesAPartialHead() {
        var parser = HTTPRequestParser()
        parser.feed(wireBytes("GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHo"))
        guard case .request = parser.next() else { Issue.record("expected the first request"); return }
        #expect(parser.next() == .needMore)
        #expect(parser.hasPartialHead)
        #expect(parser.takeBufferedBytes() == wireBytes("GET /b HTTP/1.1\r\nHo"))
        #expect(parser.isIdle)
        #expect(!parser.hasPartialHead)
    }

    @Test func idleAndPartialHeadFlags() {
        var parser = HTTPRequestParser()
        #expect(parser.isIdle)
        #expect(!parser.hasPartialHead)
        parser.feed(wireBytes("G"))
        #expect(!parser.isIdle)
        #expect(parser.hasPartialHead)
        parser.feed(wireBytes("ET / HTTP/1.1\r\nHost: h\r\n\r\n"))
        guard case .request = parser.next() else { Issue.record("expected a request"); return }
        #expect(parser.isIdle)
        #expect(parser.next() == .needMore)
    }

    @Test func manyRequestsThroughOneParserCompactTheBuffer() {
        // 2000 pipelined requests fed in uneven slices exercise compaction across request boundaries.
        let one = wireBytes("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc")
        let stream = Array((0..<2000).map { _ in one }.joined())
        var parser = HTTPRequestParser()
        var count = 0
        var offset = 0
        var sliceLength = 1
        while offset < stream.count {
            let end = min(stream.count, offset + sliceLength)
            parser.feed(stream[offset..<end])
            offset = end
            sliceLength = sliceLength % 997 + 7
            while case .request(let request) = parser.next() {
                #expect(request.body == wireBytes("abc"))
                count += 1
            }
        }
        #expect(count == 2000)
        #expect(parser.isIdle)
    }
}
