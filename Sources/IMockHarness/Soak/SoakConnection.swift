import IMockNet
import IMockWire

/// One WebSocket connection of a soak device (imock JSON at `/ws`) and what the soak knows of
/// it; its events go to the driver. Loop-confined.
final class SoakConnection: WebSocketDelegate {
    enum Phase: Equatable {
        case connecting
        case loggingIn
        case live
        case ended
    }

    /// What a request was, for its reply.
    enum Request {
        case login
        case send(seq: Int)
        case ack(seq: Int)
        case renew
        case logout
        case devices
    }

    /// A frame that announced the end of the session, and the close code that must follow.
    struct AnnouncedEnd {
        let op: String
        let closeCode: UInt16
        let isKick: Bool
    }

    let serial: Int
    let slot: Int
    /// Its own resource: the server's session list tells connections apart by it.
    let resource: String
    /// Whether it belongs to the drain (after the load).
    let draining: Bool
    weak var driver: SoakDriver?
    var channel: WebSocketChannel?
    var phase = Phase.connecting
    var pending: [String: (request: Request, sentAtMs: Int64)] = [:]
    var inOfflineSync = false
    var announcedEnd: AnnouncedEnd?
    /// A fault touched it or the device dropped it.
    var lossy = false
    var aborted = false
    private var nextRequestID = 0

    init(serial: Int, slot: Int, draining: Bool) {
        self.serial = serial
        self.slot = slot
        self.draining = draining
        resource = "soak\(slot)-c\(serial)"
    }

    /// A request id unique on this connection.
    func makeRequestID() -> String {
        nextRequestID += 1
        return String(nextRequestID)
    }

    /// Sends a request frame and remembers what it was.
    func send(_ frame: (String) -> String, as request: Request, atMs: Int64) {
        let id = makeRequestID()
        pending[id] = (request, atMs)
        channel?.send(text: frame(id))
    }

    /// Drops the connection without a goodbye (FIN, or RST), as a device that loses its network.
    func abort(reset: Bool) {
        aborted = true
        channel?.abort(reset ? .reset : .immediately)
    }

    // MARK: WebSocketDelegate

    func webSocketDidOpen(_ channel: WebSocketChannel) {}

    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        driver?.received(text, on: self)
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        driver?.anomaly("a binary message on connection \(serial)")
    }

    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        driver?.closed(self, code: code.rawValue, reason: reason)
    }
}
