/// Reads the responses of a keep-alive HTTP/1.1 connection with one request in flight: the
/// head, then `Content-Length` bytes of body (the load clients of `imock bench`).
public struct HTTPResponseReader: Sendable {
    /// Why a response could not be read.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The head is malformed or too large.
        case head(HTTPResponseHeadParser.ParseError)
        /// The head has no usable `Content-Length` (this reader does not read chunked bodies).
        case noContentLength(status: Int)
        /// Bytes arrived beyond the response while no other was asked for.
        case unexpectedBytes(Int)

        public var description: String {
            switch self {
            case .head(let error): "bad HTTP response head: \(error)"
            case .noContentLength(let status): "HTTP response \(status) without a usable Content-Length"
            case .unexpectedBytes(let count): "\(count) bytes after the HTTP response"
            }
        }
    }

    private var parser = HTTPResponseHeadParser()
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []
    private var length = 0

    /// A reader waiting for its first response.
    public init() {}

    /// Adds received bytes; returns the response once its head and whole body are in, nil while
    /// more bytes are needed. After a response the reader waits for the next one.
    public mutating func feed(_ bytes: [UInt8]) throws(Failure) -> (head: HTTPResponseHead, body: [UInt8])? {
        var received = bytes
        if head == nil {
            let parsed: (head: HTTPResponseHead, leftover: [UInt8])?
            do {
                parsed = try parser.feed(bytes)
            } catch {
                throw .head(error)
            }
            guard let (newHead, leftover) = parsed else { return nil }
            guard let length = newHead.headers["Content-Length"].flatMap({ Int($0) }), length >= 0 else {
                throw .noContentLength(status: newHead.status)
            }
            head = newHead
            self.length = length
            received = leftover
        }
        body += received
        guard let complete = head, body.count >= length else { return nil }
        guard body.count == length else { throw .unexpectedBytes(body.count - length) }
        let response = (complete, body)
        self = HTTPResponseReader()
        return response
    }
}
