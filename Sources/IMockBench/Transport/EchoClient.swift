import IMockNet

/// The baseline client: writes a fixed message on a plain `Connection` and waits for all of
/// its bytes to come back from `EchoHandler`. No HTTP or WebSocket parsing on either side.
final class EchoClient: ConnectionLoadClient {
    static let messageSize = 64
    private static let message = [UInt8](repeating: UInt8(ascii: "e"), count: messageSize)

    private var awaitedBytes = 0

    init(address: SocketAddress) { super.init(address: address, label: "echo") }

    override func sendRequest() {
        awaitedBytes = Self.messageSize
        connection?.write(Self.message)
    }

    override func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        awaitedBytes -= bytes.count
        if awaitedBytes == 0 {
            phase?.exchangeCompleted(by: self)
        } else if awaitedBytes < 0 {
            phase?.clientFailed("the echo server sent more than it was sent")
        }
    }
}

/// The baseline server side: writes back whatever it receives.
final class EchoHandler: ConnectionHandler {
    func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        connection.write(bytes)
    }

    func connectionDidClose(_ connection: Connection, error: (any Error)?) {}
}
