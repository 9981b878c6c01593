import IMockNet

/// What the session hub needs of a connection, and all it may do to one: send, close, read the
/// socket's output and acknowledgement counters, pause reading, wait for a drain or the final
/// close. The server's connections are WebSocket channels over sockets; a test hands the hub a
/// channel of its own that records what it is sent and plays the socket's part (as NIO's
/// `EmbeddedChannel` does for handlers), so the hub can be driven without sockets.
protocol HubChannel: AnyObject {
    /// Whether messages can still be sent (no close started).
    var isOpen: Bool { get }
    /// The close this end started, if it did (journalled when the engine did not decide it).
    var initiatedClose: (code: WebSocketCloseCode, reason: String)? { get }
    func send(text: String)
    func send(binary: [UInt8])
    /// Starts the closing handshake.
    func close(code: WebSocketCloseCode, reason: String)
    /// Drops the connection without a handshake (FIN or RST).
    func abort(_ mode: CloseMode)
    /// Bytes written and not yet taken by the socket.
    var pendingOutputBytes: Int { get }
    /// Every byte ever written: where the stream stands after the last write.
    var bytesQueuedTotal: UInt64 { get }
    /// How far into the stream the peer's TCP has acknowledged.
    var bytesAcknowledgedByPeer: UInt64 { get }
    func pauseReading()
    func resumeReading()
    /// Writes in slices of at most `bytes`, `delay` apart (a network toxic); nil: whole.
    func sliceOutput(_ slicing: (bytes: Int, delay: Duration)?)
    /// Runs `action` on a later turn once fewer than `bytes` wait for the socket.
    func whenOutputDrains(below bytes: Int, _ action: @escaping () -> Void)
    /// Runs `action` once the socket is closed (at once when it is).
    func whenSocketCloses(_ action: @escaping () -> Void)
}

extension WebSocketChannel: HubChannel {
    var pendingOutputBytes: Int { connection.pendingOutputBytes }
    var bytesQueuedTotal: UInt64 { connection.bytesQueuedTotal }
    var bytesAcknowledgedByPeer: UInt64 { connection.bytesAcknowledgedByPeer }
    func pauseReading() { connection.pauseReading() }
    func resumeReading() { connection.resumeReading() }
    func sliceOutput(_ slicing: (bytes: Int, delay: Duration)?) { connection.outputSlicing = slicing }
    func whenOutputDrains(below bytes: Int, _ action: @escaping () -> Void) { connection.whenOutputDrains(below: bytes, action) }
    func whenSocketCloses(_ action: @escaping () -> Void) { connection.whenSocketCloses(action) }
}
