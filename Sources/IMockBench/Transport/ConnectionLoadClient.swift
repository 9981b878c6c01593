import IMockNet

/// What every load client on one plain `Connection` shares: connecting, reporting the
/// connection to its phase, and telling an unexpected close from its own `disconnect()`.
/// Subclasses send their request and read their reply.
class ConnectionLoadClient: LoadClient, ConnectionHandler {
    private let address: SocketAddress
    /// Names the connection in failure messages, e.g. "echo" or "HTTP".
    private let label: String
    private(set) weak var phase: LoadPhase?
    private(set) var connection: Connection?
    private var disconnecting = false

    init(address: SocketAddress, label: String) {
        self.address = address
        self.label = label
    }

    func connect(for phase: LoadPhase) {
        self.phase = phase
        do {
            connection = try Connection.connect(loop: phase.loop, to: address, handler: self) { [weak self] error in
                guard let self, let error else { return }
                self.phase?.clientFailed("\(self.label) connect failed: \(error)")
            }
        } catch {
            phase.clientFailed("\(label) connect failed: \(error)")
        }
    }

    func sendRequest() {
        preconditionFailure("subclasses send their own request")
    }

    func disconnect() {
        disconnecting = true
        connection?.close(.immediately)
        connection = nil
    }

    func connectionDidBecomeActive(_ connection: Connection) {
        phase?.clientConnected()
    }

    func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        preconditionFailure("subclasses read their own reply")
    }

    func connectionDidReachEOF(_ connection: Connection) {
        if !disconnecting { phase?.clientFailed("the server closed the \(label) connection") }
        connection.close(.immediately)
    }

    func connectionDidClose(_ connection: Connection, error: (any Error)?) {
        if !disconnecting { phase?.clientFailed("\(label) connection closed: \(error.map { "\($0)" } ?? "by the peer")") }
    }
}
