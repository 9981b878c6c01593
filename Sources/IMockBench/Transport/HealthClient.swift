import IMockNet

/// Sends `GET /_imock/health` on one keep-alive connection and reads each response (head,
/// then `Content-Length` body bytes) before sending the next.
final class HealthClient: ConnectionLoadClient {
    private static let request = HTTPClientRequest.bytes("GET", "/_imock/health", host: "127.0.0.1")

    private var reader = HTTPResponseReader()

    init(address: SocketAddress) { super.init(address: address, label: "HTTP") }

    override func sendRequest() {
        reader = HTTPResponseReader()
        connection?.write(Self.request)
    }

    override func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        do {
            guard let response = try reader.feed(bytes) else { return }
            guard response.head.status == 200 else {
                phase?.clientFailed("health answered \(response.head.status)")
                return
            }
            phase?.exchangeCompleted(by: self)
        } catch {
            phase?.clientFailed("\(error)")
        }
    }
}
