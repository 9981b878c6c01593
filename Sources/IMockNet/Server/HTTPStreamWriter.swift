/// Receives the life events of a long-lived HTTP response (`HTTPServerResponse.stream`), on the
/// loop thread.
public protocol HTTPStreamDelegate: AnyObject {
    /// The response head went out; `writer` sends the body from now on (it may write at once).
    func streamDidOpen(_ writer: HTTPStreamWriter)
    /// Called exactly once when the stream ended, for whatever reason; the writer no longer
    /// writes and the delegate is released.
    func streamDidClose(_ writer: HTTPStreamWriter, reason: HTTPStreamEnd)
}

/// Why a stream ended.
public enum HTTPStreamEnd: Sendable, Equatable {
    /// The application called `close()`.
    case finished
    /// The client went away, or the server closed the connection (shutdown).
    case connectionClosed
    /// The client read too slowly: more than `maxPendingBytes` waited for the socket, so the
    /// connection was dropped rather than buffered without bound.
    case slowConsumer
}

/// Writes the body of a streamed response (Server-Sent Events, a long poll …) to one
/// connection. Over HTTP/1.1 each `write` becomes one chunk of `Transfer-Encoding: chunked`;
/// over HTTP/1.0 the bytes go out as they are and the end of the body is the end of the
/// connection. Either way the connection closes when the stream ends (`Connection: close`).
///
/// Back-pressure: output waiting for a slow client counts against `maxPendingBytes`; a write
/// that leaves more than that queued drops the connection (`HTTPStreamEnd.slowConsumer`) —
/// the stream never buffers without bound, and the client can reconnect.
///
/// Loop-confined. Holds its connection weakly: once the connection is gone, writes are ignored.
public final class HTTPStreamWriter {
    /// The default for `maxPendingBytes`.
    public static let defaultMaxPendingBytes = 1 << 20

    /// The id of the connection the stream runs on.
    public let connectionID: UInt64
    /// The loop the stream lives on (for the application's timers).
    public let loop: EventLoop
    /// The client's address.
    public let peer: SocketAddress?
    /// The most output that may wait for the client before it counts as a slow consumer.
    public var maxPendingBytes = HTTPStreamWriter.defaultMaxPendingBytes

    private weak var connection: Connection?
    private let isChunked: Bool
    private var delegate: (any HTTPStreamDelegate)?
    /// Whether the stream can still send.
    public private(set) var isOpen = true

    init(connection: Connection, peer: SocketAddress?, isChunked: Bool, delegate: any HTTPStreamDelegate) {
        self.connectionID = connection.id
        self.loop = connection.loop
        self.peer = peer
        self.connection = connection
        self.isChunked = isChunked
        self.delegate = delegate
    }

    /// Sends `bytes` as the next piece of the body. Returns false when the stream has ended
    /// (before or because of this write: a slow consumer is dropped here).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard isOpen, let connection, connection.isOpen else { return false }
        guard !bytes.isEmpty else { return true }
        if isChunked {
            var chunk = Array(String(bytes.count, radix: 16).utf8) + [0x0D, 0x0A]
            chunk.reserveCapacity(chunk.count + bytes.count + 2)
            chunk += bytes
            chunk += [0x0D, 0x0A]
            connection.write(chunk)
        } else {
            connection.write(bytes)
        }
        guard connection.pendingOutputBytes <= maxPendingBytes else {
            end(.slowConsumer)
            connection.close(.immediately)
            return false
        }
        return isOpen
    }

    /// Sends `text` as UTF-8.
    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Ends the body (the last chunk) and closes the connection after what is queued is sent.
    public func close() {
        guard isOpen else { return }
        end(.finished)
        guard let connection, connection.isOpen else { return }
        if isChunked { connection.write(Array("0\r\n\r\n".utf8)) }
        connection.close(.afterFlush)
    }

    /// The connection closed underneath the stream.
    func connectionClosed() {
        end(.connectionClosed)
    }

    private func end(_ reason: HTTPStreamEnd) {
        guard isOpen else { return }
        isOpen = false
        let delegate = self.delegate
        self.delegate = nil
        delegate?.streamDidClose(self, reason: reason)
    }

    func open() {
        delegate?.streamDidOpen(self)
    }

    /// The head of a streamed response: the application's status and headers with the framing
    /// set here (chunked over HTTP/1.1, none over HTTP/1.0; never `Content-Length`) and
    /// `Connection: close`. Field names that are not tokens are dropped and control characters
    /// removed from values, as for every response.
    static func head(_ response: HTTPResponse, version: HTTPVersion, isChunked: Bool) -> [UInt8] {
        var headers = response.headers
        for name in ["Content-Length", "Transfer-Encoding", "Connection"] { headers.remove(name) }
        if isChunked { headers.add("Transfer-Encoding", "chunked") }
        headers.add("Connection", "close")
        var out = Array("\(version) \(response.status) \(HTTPStatus.reasonPhrase(for: response.status))\r\n".utf8)
        for field in headers where HTTPSyntax.isToken(field.name.utf8) {
            out += field.name.utf8
            out += ": ".utf8
            out += field.value.utf8.filter(HTTPSyntax.isFieldValueCharacter)
            out += "\r\n".utf8
        }
        out += "\r\n".utf8
        return out
    }
}
