/// What the shell around a ``WebSocketStateMachine`` must do, in order.
public enum WebSocketAction: Equatable, Sendable {
    /// Write these bytes to the transport.
    case write([UInt8])
    /// A complete text message arrived.
    case text(String)
    /// A complete binary message arrived.
    case binary([UInt8])
    /// A ping arrived (informational: the pong is already queued as a `.write` before it).
    case ping([UInt8])
    /// A pong arrived.
    case pong([UInt8])
    /// Close the TCP connection now (after performing the preceding writes).
    case closeTransport
    /// The connection is over; emitted exactly once. `code` is the code of the peer's Close
    /// frame (``WebSocketCloseCode/noStatusReceived`` when it had none), the error's code when
    /// the connection failed, or ``WebSocketCloseCode/abnormalClosure`` when the transport
    /// dropped before the closing handshake finished. `initiatedLocally` tells whether this end
    /// started the closing (a local `close`, or a protocol error detected here).
    case closed(code: WebSocketCloseCode, reason: String, initiatedLocally: Bool)
}
