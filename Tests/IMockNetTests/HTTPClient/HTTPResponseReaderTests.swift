import IMockNet
import Testing

/// The keep-alive response reader of the load clients: responses split anywhere, one after
/// another, and the refusals.
@Suite("HTTPResponseReader")
struct HTTPResponseReaderTests {
    static let first = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".utf8)
    static let second = Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8)

    @Test("a response split at every byte is read once, whole; the next one follows", arguments: 0..<first.count)
    func splits(at cut: Int) throws {
        var reader = HTTPResponseReader()
        #expect(try reader.feed(Array(Self.first[..<cut])) == nil)
        let response = try reader.feed(Array(Self.first[cut...]))
        #expect(response?.head.status == 200)
        #expect(response?.body == Array("hello".utf8))
        let next = try reader.feed(Self.second)
        #expect(next?.head.status == 404 && next?.body == [])
    }

    @Test("no Content-Length, bytes beyond the response, and a malformed head are refused")
    func refusals() {
        var reader = HTTPResponseReader()
        #expect(throws: HTTPResponseReader.Failure.noContentLength(status: 200)) {
            try reader.feed(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        }
        reader = HTTPResponseReader()
        #expect(throws: HTTPResponseReader.Failure.unexpectedBytes(3)) {
            try reader.feed(Self.first + Array("xyz".utf8))
        }
        reader = HTTPResponseReader()
        #expect(throws: HTTPResponseReader.Failure.self) { try reader.feed(Array("nonsense\r\n\r\n".utf8)) }
    }
}
