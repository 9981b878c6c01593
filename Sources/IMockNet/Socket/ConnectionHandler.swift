/// Receives the events of one `Connection`, on the loop thread.
public protocol ConnectionHandler: AnyObject {
    /// Called once when the connection is ready for data (after connect and TLS set-up began).
    func connectionDidBecomeActive(_ connection: Connection)
    /// Called with each chunk of (decrypted) bytes, in order.
    func connection(_ connection: Connection, didReceive bytes: [UInt8])
    /// The peer closed its sending side. The default closes the connection after flushing.
    func connectionDidReachEOF(_ connection: Connection)
    /// Called exactly once when the connection is closed, for whatever reason.
    func connectionDidClose(_ connection: Connection, error: (any Error)?)
    /// The server is about to close this connection because it shuts down: write a protocol
    /// goodbye if there is one. The default writes nothing.
    func serverWillShutDown(_ connection: Connection)
}

extension ConnectionHandler {
    public func connectionDidBecomeActive(_ connection: Connection) {}
    public func connectionDidReachEOF(_ connection: Connection) {
        connection.close(.afterFlush)
    }

    public func serverWillShutDown(_ connection: Connection) {}
}

/// How to close a connection.
public enum CloseMode: Sendable, Equatable {
    /// Write what is queued, send FIN, then read and discard until the peer closes or a short
    /// linger time passes, so the peer sees the last response instead of a reset.
    case afterFlush
    /// Close now, dropping queued output (the peer sees FIN).
    case immediately
    /// Close now with a TCP RST (`SO_LINGER` 0).
    case reset
}
