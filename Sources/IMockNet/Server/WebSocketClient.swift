/// Why a WebSocket client could not connect.
public enum WebSocketClientError: Error, Sendable, CustomStringConvertible {
    case connectFailed(SystemError)
    case handshakeFailed(String)
    case closedDuringHandshake
    case timedOut
    /// The server answered the upgrade request with another status than 101 (and this body, at
    /// most ``WebSocketClient/maximumRefusalBodyBytes``): a refusal the client may read (OpenIM's
    /// gateway refuses a token with HTTP 200 and a JSON body).
    case refused(status: Int, body: [UInt8])

    public var description: String {
        switch self {
        case .connectFailed(let error): "connect failed: \(error)"
        case .handshakeFailed(let reason): "WebSocket handshake failed: \(reason)"
        case .closedDuringHandshake: "the server closed the connection during the WebSocket handshake"
        case .timedOut: "the WebSocket handshake timed out"
        case .refused(let status, let body):
            "WebSocket handshake failed: expected 101 Switching Protocols, got \(status): \(String(decoding: body, as: UTF8.self))"
        }
    }
}

/// Opens client WebSocket connections (ws and wss) on an event loop.
public enum WebSocketClient {
    /// How long the TCP connect, TLS and HTTP upgrade may take together.
    public static let handshakeTimeout: Duration = .seconds(10)
    /// The most of a refusal's body kept (``WebSocketClientError/refused(status:body:)``).
    public static let maximumRefusalBodyBytes = 64 * 1024

    /// Connects to `address`, performs the opening handshake for `path` with `host` as the
    /// Host header, and calls `completion` on the loop thread with the open channel (its
    /// delegate already told `webSocketDidOpen`) or the error. Call on the loop thread.
    ///
    /// With `tls`, `serverName` is sent as SNI and, when the context verifies peers, checked
    /// against the certificate; nil means `host` without a port (and no SNI for an IP address).
    /// `receiveBufferBytes`: the socket's `SO_RCVBUF` (``Connection/connect(loop:to:tls:serverName:receiveBufferBytes:handler:completion:)``).
    public static func connect(
        loop: EventLoop, address: SocketAddress, host: String, path: String,
        tls: TLSContext? = nil, serverName: String? = nil, headers: HTTPHeaders = HTTPHeaders(),
        maxMessageBytes: Int = HTTPServerConfiguration.defaultMaxWebSocketMessageBytes, receiveBufferBytes: Int? = nil,
        delegate: any WebSocketDelegate,
        completion: @escaping (Result<WebSocketChannel, WebSocketClientError>) -> Void
    ) {
        let handshake = ClientHandshakeHandler(
            host: host, path: path, headers: headers, maxMessageBytes: maxMessageBytes, delegate: delegate,
            completion: completion)
        do {
            let connection = try Connection.connect(
                loop: loop, to: address, tls: tls,
                serverName: tls == nil ? nil : (serverName ?? TLSServerName.from(hostHeader: host)),
                receiveBufferBytes: receiveBufferBytes, handler: handshake
            ) { error in
                if let error { handshake.fail(.connectFailed(error)) }
            }
            handshake.timer = loop.scheduleTimer(after: handshakeTimeout) { [weak connection] in
                handshake.fail(.timedOut)
                connection?.close(.immediately)
            }
        } catch {
            completion(.failure(.connectFailed(error)))
        }
    }
}

/// Sends the upgrade request and validates the answer, then installs a `WebSocketChannel`.
private final class ClientHandshakeHandler: ConnectionHandler {
    private let host: String
    private let path: String
    private let headers: HTTPHeaders
    private let maxMessageBytes: Int
    private let delegate: any WebSocketDelegate
    private var completion: ((Result<WebSocketChannel, WebSocketClientError>) -> Void)?
    private var key = ""
    private var parser = HTTPResponseHeadParser()
    var timer: LoopTimerID?
    private weak var loop: EventLoop?
    /// A non-101 answer whose body is being read: its status, Content-Length and body so far.
    private var refusal: (status: Int, length: Int?, body: [UInt8])?

    init(
        host: String, path: String, headers: HTTPHeaders, maxMessageBytes: Int, delegate: any WebSocketDelegate,
        completion: @escaping (Result<WebSocketChannel, WebSocketClientError>) -> Void
    ) {
        self.host = host
        self.path = path
        self.headers = headers
        self.maxMessageBytes = maxMessageBytes
        self.delegate = delegate
        self.completion = completion
    }

    func fail(_ error: WebSocketClientError) {
        guard let completion else { return }
        self.completion = nil
        if let timer { loop?.cancelTimer(timer) }
        completion(.failure(error))
    }

    func connectionDidBecomeActive(_ connection: Connection) {
        loop = connection.loop
        let request = WebSocketHandshake.clientRequest(host: host, path: path, extraHeaders: headers)
        key = request.key
        connection.write(request.bytes)
    }

    func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        if refusal != nil { return readRefusal(bytes, connection) }
        let parsed: (head: HTTPResponseHead, leftover: [UInt8])?
        do {
            parsed = try parser.feed(bytes)
        } catch {
            fail(.handshakeFailed("\(error)"))
            connection.close(.immediately)
            return
        }
        guard let (head, leftover) = parsed else { return }
        if head.status != 101 {
            refusal = (head.status, head.headers["Content-Length"].flatMap { Int($0) }, [])
            return readRefusal(leftover, connection)
        }
        if case .failure(let error) = WebSocketHandshake.validateServerResponse(head, key: key) {
            fail(.handshakeFailed(error.description))
            connection.close(.immediately)
            return
        }
        guard let completion else { return }
        self.completion = nil
        if let timer { connection.loop.cancelTimer(timer) }
        let channel = WebSocketChannel(connection: connection, role: .client, maxMessageBytes: maxMessageBytes)
        connection.handler = channel
        completion(.success(channel))
        channel.start(delegate: delegate, initialBytes: leftover)
    }

    /// Collects a refusal's body up to its Content-Length (or the limit, or the end of the connection).
    private func readRefusal(_ bytes: [UInt8], _ connection: Connection) {
        guard var answer = refusal else { return }
        answer.body += bytes
        refusal = answer
        let limit = min(answer.length ?? Int.max, WebSocketClient.maximumRefusalBodyBytes)
        guard answer.body.count >= limit else { return }
        fail(.refused(status: answer.status, body: Array(answer.body.prefix(limit))))
        connection.close(.immediately)
    }

    func connectionDidReachEOF(_ connection: Connection) {
        if let refusal { fail(.refused(status: refusal.status, body: refusal.body)) }
        fail(.closedDuringHandshake)
        connection.close(.immediately)
    }

    func connectionDidClose(_ connection: Connection, error: (any Error)?) {
        if let refusal { fail(.refused(status: refusal.status, body: refusal.body)) }
        fail(.closedDuringHandshake)
    }
}
