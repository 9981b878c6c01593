import IMockNet

/// An async wrapper over IMockNet's own WebSocket client, for tests.
public final class TestWebSocket: WebSocketDelegate, @unchecked Sendable {
    public enum Event: Equatable, Sendable {
        case text(String)
        case binary([UInt8])
        case pong([UInt8])
        case closed(code: UInt16, reason: String)
    }

    public let loop: EventLoop
    private let stream: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private var iterator: AsyncStream<Event>.Iterator
    /// Loop-confined.
    private var channel: WebSocketChannel?

    private init(loop: EventLoop) {
        self.loop = loop
        (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        iterator = stream.makeAsyncIterator()
    }

    /// Opens `ws(s)://127.0.0.1:port/path` on `loop`.
    public static func connect(
        loop: EventLoop, port: UInt16, host: String = "127.0.0.1", path: String = "/ws", tls: TLSContext? = nil
    ) async throws -> TestWebSocket {
        let socket = TestWebSocket(loop: loop)
        let address = try SocketAddress.resolve(host: host, port: port)
        let tlsBox = UncheckedBox(tls)
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            loop.execute {
                WebSocketClient.connect(
                    loop: loop, address: address, host: host, path: path, tls: tlsBox.value, delegate: socket
                ) { result in
                    switch result {
                    case .success(let channel):
                        socket.channel = channel
                        done.resume()
                    case .failure(let error):
                        done.resume(throwing: error)
                    }
                }
            }
        }
        return socket
    }

    public func send(text: String) { onLoop { $0.send(text: text) } }
    public func send(binary: [UInt8]) { onLoop { $0.send(binary: binary) } }
    public func ping(_ payload: [UInt8]) { onLoop { $0.sendPing(payload) } }
    public func close(code: UInt16, reason: String = "") { onLoop { $0.close(code: WebSocketCloseCode(code), reason: reason) } }

    /// The next event, or nil when the stream ended.
    public func next() async -> Event? { await iterator.next() }

    private func onLoop(_ body: @escaping (WebSocketChannel) -> Void) {
        let box = UncheckedBox(body)
        loop.execute { [self] in
            if let channel { box.value(channel) }
        }
    }

    // MARK: WebSocketDelegate (loop thread)

    public func webSocketDidOpen(_ channel: WebSocketChannel) {}

    public func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        continuation.yield(.text(text))
    }

    public func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        continuation.yield(.binary(bytes))
    }

    public func webSocket(_ channel: WebSocketChannel, didReceivePong payload: [UInt8]) {
        continuation.yield(.pong(payload))
    }

    public func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        continuation.yield(.closed(code: code.rawValue, reason: reason))
        continuation.finish()
        self.channel = nil
    }
}
