/// Limits and timeouts of an `HTTPServer`. Every limit is a named constant with a command-line
/// flag in `imock serve`.
public struct HTTPServerConfiguration: Sendable {
    /// Default maximum number of open connections (HTTP and WebSocket together).
    public static let defaultMaxConnections = 10_000
    /// Default time a client has to send a complete request head.
    public static let defaultHeaderTimeout: Duration = .seconds(10)
    /// Default time a client has to send a request body once its head arrived.
    public static let defaultBodyTimeout: Duration = .seconds(30)
    /// Default time a keep-alive connection may sit between requests.
    public static let defaultIdleTimeout: Duration = .seconds(60)
    /// Default largest WebSocket frame and message accepted.
    public static let defaultMaxWebSocketMessageBytes = 1 << 20
    /// How long a WebSocket end waits for the peer's Close frame before dropping the socket.
    public static let webSocketCloseTimeout: Duration = .seconds(5)

    public var limits: HTTPLimits
    public var headerTimeout: Duration
    public var bodyTimeout: Duration
    public var idleTimeout: Duration
    public var maxConnections: Int
    public var maxWebSocketMessageBytes: Int
    /// When set, every accepted connection speaks TLS (https and wss).
    public var tls: TLSContext?
    /// The answer to a request that could not be parsed (the connection closes after it), so an
    /// application can keep its own error envelope for transport errors too.
    public var transportErrorResponse: @Sendable (HTTPParseError) -> HTTPResponse = HTTPResponse.transportError
    /// The answer to a refused WebSocket upgrade (status and headers of the error; the body is
    /// the application's), so an upgrade path keeps the application's error envelope too.
    public var handshakeErrorResponse: @Sendable (WebSocketHandshake.HandshakeError) -> HTTPResponse = { $0.response }

    public init(
        limits: HTTPLimits = HTTPLimits(),
        headerTimeout: Duration = HTTPServerConfiguration.defaultHeaderTimeout,
        bodyTimeout: Duration = HTTPServerConfiguration.defaultBodyTimeout,
        idleTimeout: Duration = HTTPServerConfiguration.defaultIdleTimeout,
        maxConnections: Int = HTTPServerConfiguration.defaultMaxConnections,
        maxWebSocketMessageBytes: Int = HTTPServerConfiguration.defaultMaxWebSocketMessageBytes,
        tls: TLSContext? = nil
    ) {
        self.limits = limits
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.maxWebSocketMessageBytes = maxWebSocketMessageBytes
        self.tls = tls
    }
}
