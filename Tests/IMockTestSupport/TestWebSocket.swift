import IMockNet

/// An async wrapper over IMockNet's own WebSocket client, for tests.
public final class TestWebSocket: WebSocketDelegate, @unchecked Sendable {
    public enum Event: Equatable, Sendable {
        case text(String)
        case binary([UInt8])
        case pong([UInt8])
        case closed(code: UInt16, reason: String)
        /// Nothing arrived within the wait's real-time limit (a hung expectation, not a timing
        /// assertion).
        case timedOut
    }

    public let loop: EventLoop
    private let events = BoundedQueue<Event>()
    /// Loop-confined.
    private var channel: WebSocketChannel?

    private init(loop: EventLoop) {
        self.loop = loop
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

    /// The next event; nil when the stream ended; ``Event/timedOut`` when nothing came within
    /// `limit` of real time.
    public func next(limit: Duration = BoundedQueue<Event>.defaultLimit) async -> Event? {
        guard let event = await events.next(limit: limit) else { return events.isFinished ? nil : .timedOut }
        return event
    }

    private func onLoop(_ body: @escaping (WebSocketChannel) -> Void) {
        let box = UncheckedBox(body)
        loop.execute { [self] in
            if let channel { box.value(channel) }
        }
    }

    // MARK: WebSocketDelegate (loop thread)

    public func webSocketDidOpen(_ channel: WebSocketChannel) {}

    public func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        events.append(.text(text))
    }

    public func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        events.append(.binary(bytes))
    }

    public func webSocket(_ channel: WebSocketChannel, didReceivePong payload: [UInt8]) {
        events.append(.pong(payload))
    }

    public func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        events.append(.closed(code: code.rawValue, reason: reason))
        events.finish()
        self.channel = nil
    }
}
