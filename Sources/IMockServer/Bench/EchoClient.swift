import IMockNet

/// The baseline client: writes a fixed message on a plain `Connection` and waits for all of
/// its bytes to come back from `EchoHandler`. No HTTP or WebSocket parsing on either side.
final class EchoClient: LoadClient, ConnectionHandler {
    static let messageSize = 64
    private static let message = [UInt8](repeating: UInt8(ascii: "e"), count: messageSize)

    private let address: SocketAddress
    private weak var phase: LoadPhase?
    private var connection: Connection?
    private var awaitedBytes = 0
    private var disconnecting = false

    init(address: SocketAddress) { self.address = address }

    func connect(for phase: LoadPhase) {
        self.phase = phase
        do {
            connection = try Connection.connect(loop: phase.loop, to: address, handler: self) { [weak self] error in
                if let error { self?.phase?.clientFailed("echo connect failed: \(error)") }
            }
        } catch {
            phase.clientFailed("echo connect failed: \(error)")
        }
    }

    func sendRequest() {
        awaitedBytes = Self.messageSize
        connection?.write(Self.message)
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
        awaitedBytes -= bytes.count
        if awaitedBytes == 0 {
            phase?.exchangeCompleted(by: self)
        } else if awaitedBytes < 0 {
            phase?.clientFailed("the echo server sent more than it was sent")
        }
    }

    func connectionDidReachEOF(_ connection: Connection) {
        if !disconnecting { phase?.clientFailed("the echo server closed the connection") }
        connection.close(.immediately)
    }

    func connectionDidClose(_ connection: Connection, error: (any Error)?) {
        if !disconnecting { phase?.clientFailed("echo connection closed: \(error.map { "\($0)" } ?? "by the peer")") }
    }
}

/// The baseline server side: writes back whatever it receives.
final class EchoHandler: ConnectionHandler {
    func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        connection.write(bytes)
    }

    func connectionDidClose(_ connection: Connection, error: (any Error)?) {}
}
