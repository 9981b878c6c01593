import IMockNet

/// Sends `GET /_imock/health` on one keep-alive connection and reads each response (head,
/// then `Content-Length` body bytes) before sending the next.
final class HealthClient: ConnectionLoadClient {
    private static let request = Array("GET /_imock/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)

    private var parser = HTTPResponseHeadParser()
    /// The body bytes still expected, once the head was read.
    private var awaitedBodyBytes: Int?

    init(address: SocketAddress) { super.init(address: address, label: "HTTP") }

    override func sendRequest() {
        parser = HTTPResponseHeadParser()
        awaitedBodyBytes = nil
        connection?.write(Self.request)
    }

    override func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        var bodyBytes = bytes.count
        if awaitedBodyBytes == nil {
            let parsed: (head: HTTPResponseHead, leftover: [UInt8])?
            do {
                parsed = try parser.feed(bytes)
            } catch {
                phase?.clientFailed("bad HTTP response head: \(error)")
                return
            }
            guard let (head, leftover) = parsed else { return }
            guard head.status == 200, let length = head.headers["Content-Length"].flatMap({ Int($0) }) else {
                phase?.clientFailed("health answered \(head.status) without a usable Content-Length")
                return
            }
            awaitedBodyBytes = length
            bodyBytes = leftover.count
        }
        guard let awaited = awaitedBodyBytes else { return }
        let remaining = awaited - bodyBytes
        awaitedBodyBytes = remaining
        if remaining == 0 {
            phase?.exchangeCompleted(by: self)
        } else if remaining < 0 {
            phase?.clientFailed("the server sent bytes after the health response")
        }
    }
}
