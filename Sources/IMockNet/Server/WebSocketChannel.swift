/// Receives the events of one WebSocket connection, on the loop thread.
public protocol WebSocketDelegate: AnyObject {
    /// The handshake is done; the channel can send.
    func webSocketDidOpen(_ channel: WebSocketChannel)
    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String)
    func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8])
    func webSocket(_ channel: WebSocketChannel, didReceivePong payload: [UInt8])
    /// A ping arrived (its pong is already on its way).
    func webSocket(_ channel: WebSocketChannel, didReceivePing payload: [UInt8])
    /// Called exactly once. `code` is the peer's close code, the protocol error's code, or
    /// 1006 when the connection dropped without a closing handshake.
    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String)
}

extension WebSocketDelegate {
    public func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {}
    public func webSocket(_ channel: WebSocketChannel, didReceivePong payload: [UInt8]) {}
    public func webSocket(_ channel: WebSocketChannel, didReceivePing payload: [UInt8]) {}
}

/// A WebSocket connection (server or client end) over a `Connection`: runs the RFC 6455 state
/// machine and performs its actions. Loop-confined.
public final class WebSocketChannel: ConnectionHandler {
    public let connection: Connection
    /// Held strongly until the close is reported, then released (so a delegate may hold the
    /// channel without leaking either).
    public private(set) var delegate: (any WebSocketDelegate)?
    private var machine: WebSocketStateMachine
    private var closeTimer: LoopTimerID?
    private var didNotifyClose = false

    convenience init(connection: Connection, role: WebSocketRole, maxMessageBytes: Int) {
        self.init(
            connection: connection,
            settings: WebSocketSettings(role: role, maxFrameSize: maxMessageBytes, maxMessageSize: maxMessageBytes))
    }

    /// A channel of `settings`, which a server shares between all its connections.
    init(connection: Connection, settings: WebSocketSettings) {
        self.connection = connection
        self.machine = WebSocketStateMachine(settings: settings)
    }

    /// The underlying connection's id.
    public var id: UInt64 { connection.id }

    /// Whether messages can still be sent.
    public var isOpen: Bool { machine.isOpen && connection.isOpen }

    /// The code and reason of the Close frame this end sent to start the closing: its own
    /// ``close(code:reason:)`` or a protocol error's (1002, 1007, 1009 …); nil when the peer
    /// closed first.
    public var initiatedClose: (code: WebSocketCloseCode, reason: String)? { machine.initiatedClose }

    func start(delegate: any WebSocketDelegate, initialBytes: [UInt8]) {
        self.delegate = delegate
        delegate.webSocketDidOpen(self)
        if !initialBytes.isEmpty { perform(machine.receive(initialBytes)) }
    }

    /// Sends a text message (dropped once closing started).
    public func send(text: String) { perform(machine.sendText(text)) }

    /// Sends a binary message (dropped once closing started).
    public func send(binary: [UInt8]) { perform(machine.sendBinary(binary)) }

    /// Sends a ping; the pong arrives through the delegate.
    public func sendPing(_ payload: [UInt8] = []) { perform(machine.sendPing(payload)) }

    /// Starts the closing handshake; the socket is dropped if the peer does not answer within
    /// `HTTPServerConfiguration.webSocketCloseTimeout`.
    public func close(code: WebSocketCloseCode, reason: String = "") {
        perform(machine.close(code: code, reason: reason))
        armCloseTimer()
    }

    /// Drops the connection without a closing handshake (`.immediately` sends FIN, `.reset` RST).
    public func abort(_ mode: CloseMode) {
        connection.close(mode)
    }

    // MARK: ConnectionHandler

    public func connectionDidBecomeActive(_ connection: Connection) {}

    public func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        perform(machine.receive(bytes))
    }

    public func serverWillShutDown(_ connection: Connection) {
        close(code: .goingAway, reason: "server shutting down")
    }

    public func connectionDidReachEOF(_ connection: Connection) {
        perform(machine.transportClosed())
        connection.close(.immediately)
    }

    public func connectionDidClose(_ connection: Connection, error: (any Error)?) {
        if let closeTimer { connection.loop.cancelTimer(closeTimer) }
        perform(machine.transportClosed())
    }

    private func perform(_ actions: [WebSocketAction]) {
        for action in actions {
            switch action {
            case .write(let bytes):
                connection.write(bytes)
            case .text(let text):
                delegate?.webSocket(self, didReceiveText: text)
            case .binary(let bytes):
                delegate?.webSocket(self, didReceiveBinary: bytes)
            case .ping(let payload):
                delegate?.webSocket(self, didReceivePing: payload)
            case .pong(let payload):
                delegate?.webSocket(self, didReceivePong: payload)
            case .closeTransport:
                connection.close(.afterFlush)
            case .closed(let code, let reason, _):
                armCloseTimer()
                guard !didNotifyClose else { continue }
                didNotifyClose = true
                let delegate = self.delegate
                self.delegate = nil
                delegate?.webSocketDidClose(self, code: code, reason: reason)
            }
        }
    }

    /// A client waits for the server to close TCP, a server for the client's Close frame: never forever.
    private func armCloseTimer() {
        guard closeTimer == nil, connection.isOpen else { return }
        closeTimer = connection.loop.scheduleTimer(after: HTTPServerConfiguration.webSocketCloseTimeout) {
            [weak self] in
            self?.connection.close(.immediately)
        }
    }
}
