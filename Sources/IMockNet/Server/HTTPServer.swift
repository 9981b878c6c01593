/// An HTTP/1.1 server (with WebSocket upgrade and optional TLS) on one event loop.
///
/// ```swift
/// let loop = try EventLoop()
/// let server = HTTPServer(loop: loop, configuration: .init()) { request, _ in
///     .respond(.json(status: 200, Array("{}".utf8)))
/// }
/// let address = try server.listen(host: "127.0.0.1", port: 0)  // before loop.start(), or on the loop
/// loop.start()
/// ```
/// All state is confined to the loop thread.
public final class HTTPServer {
    public let loop: EventLoop
    public let configuration: HTTPServerConfiguration
    private let responder: HTTPResponder
    private var listeners: [TCPListener] = []
    /// The open connections by descriptor: an array slot a connection, where a dictionary by id
    /// cost 35 bytes (32,768 slots for 15,000; docs/BENCHMARKS.md, `fleet`).
    private var connections = DescriptorTable<Connection>()
    /// How many are open.
    private var openConnections = 0
    /// What every connection calls once closed: one observer for all (a closure made per
    /// connection cost 32 bytes a connection).
    private lazy var forget = ConnectionCloseObserver { [weak self] closed in
        // Only its own: the descriptor is free again once closed (a new connection takes it
        // later, on this loop).
        guard let self, self.connections[closed.fd] === closed else { return }
        self.connections[closed.fd] = nil
        self.openConnections -= 1
    }

    /// What every upgraded connection's WebSocket state machine reads: one object for all.
    private let webSocketSettings: WebSocketSettings

    public init(loop: EventLoop, configuration: HTTPServerConfiguration, responder: @escaping HTTPResponder) {
        self.loop = loop
        self.configuration = configuration
        self.responder = responder
        webSocketSettings = WebSocketSettings(
            role: .server, maxFrameSize: configuration.maxWebSocketMessageBytes,
            maxMessageSize: configuration.maxWebSocketMessageBytes)
    }

    /// Starts listening on `host`:`port` (port 0: the OS chooses) and returns the bound address.
    @discardableResult
    public func listen(host: String, port: UInt16) throws -> SocketAddress {
        let address = try SocketAddress.resolve(host: host, port: port)
        let listener = try TCPListener(loop: loop, address: address) { [unowned self] fd, peer in
            self.accept(fd: fd, peer: peer)
        }
        listeners.append(listener)
        return listener.address
    }

    /// The addresses the server listens on.
    public var addresses: [SocketAddress] { listeners.map(\.address) }

    /// The number of open connections (HTTP and WebSocket).
    public var connectionCount: Int { openConnections }

    /// Stops listening and closes every connection. Each handler first gets
    /// `serverWillShutDown` to say goodbye in its protocol (a WebSocket sends a Close frame with
    /// 1001 "going away", written at once when the socket has room); then every socket is closed.
    public func shutdown() {
        for listener in listeners { listener.close() }
        listeners.removeAll()
        for (_, connection) in connections.all {
            connection.handler?.serverWillShutDown(connection)
            connection.close(.immediately)
        }
    }

    private func accept(fd: Int32, peer: SocketAddress?) {
        let connection = Connection(loop: loop, acceptedFD: fd, tls: configuration.tls)
        if openConnections >= configuration.maxConnections {
            refuse(connection)
            return
        }
        connection.handler = HTTPConnectionHandler(
            configuration: configuration, webSocketSettings: webSocketSettings, peer: peer, responder: responder)
        connections[fd] = connection
        openConnections += 1
        connection.closeObserver = forget
        do {
            try connection.activate()
        } catch {
            connection.close(.immediately)
        }
    }

    /// Over the connection limit: a plain-text client gets 503, a TLS one is closed at once.
    private func refuse(_ connection: Connection) {
        guard configuration.tls == nil, (try? connection.activate()) != nil else {
            connection.close(.immediately)
            return
        }
        let response = HTTPResponse.jsonError(
            status: 503, error: "too_many_connections",
            description: "the server holds its maximum of \(configuration.maxConnections) connections")
        connection.write(response.serialized(keepAlive: false))
        connection.close(.afterFlush)
    }
}
