import IMockClient
import IMockCore
import IMockNet
import IMockWire

/// One WebSocket connection of a soak device and what the soak knows of it; its events go to
/// the driver, which speaks the imock JSON protocol's words. A device of another dialect
/// (msync, the OpenIM gateway) goes through the reference client's wire for it, which turns
/// those words into its dialect's messages and back. Loop-confined.
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
    /// The dialect it speaks.
    let transport: ClientTransport
    /// The reference client's wire of a dialect other than imock JSON (whose frames go as they are).
    let wire: (any ClientWire)?
    /// A fault touched it or the device dropped it.
    var lossy = false
    /// Opened with a small receive buffer (``SoakDriver/narrowReceiveBufferBytes``): the kind
    /// that stalls, since a full window is what makes the server hold its messages.
    var narrow = false
    /// It stopped reading at some point (docs/SOAK.md § Stalls): the server may close it for
    /// what it held (1008) or cut it at its close timer.
    var stalled = false
    /// It is stalled now: the driver neither picks it for actions nor reads from it.
    var stalling = false
    var aborted = false
    private var nextRequestID = 0

    init(serial: Int, slot: Int, draining: Bool, transport: ClientTransport = .imockJSON, platform: DevicePlatform? = nil) {
        self.serial = serial
        self.slot = slot
        self.draining = draining
        self.transport = transport
        wire = transport == .imockJSON ? nil : transport.makeWire()
        let own = "soak\(slot)-c\(serial)"
        // The gateway names no resource: the server makes it of the platform and the device id,
        // which the wire sends as the device's UUID (``uuid``).
        resource = transport == .openIM ? LoginDevice.assignedResource(platform: platform ?? .openIM(.web), uuid: own) : own
        uuid = transport == .openIM ? own : nil
    }

    /// The device UUID this connection logs in with instead of its slot's (OpenIM: one per
    /// connection, so that its resource is its own).
    let uuid: String?

    /// A request id unique on this connection.
    func makeRequestID() -> String {
        nextRequestID += 1
        return String(nextRequestID)
    }

    /// Sends a request frame and remembers what it was.
    func send(_ frame: (String) -> String, as request: Request, atMs: Int64) {
        let id = makeRequestID()
        pending[id] = (request, atMs)
        let text = frame(id)
        guard let wire else {
            channel?.send(text: text)
            return
        }
        guard let parsed = try? ClientFrameParser.parse(text) else {
            return driver?.anomaly("the soak wrote a frame its wire cannot read: \(text.prefix(120))") ?? ()
        }
        carryOut(wire.encode(ImockJSONDialect.command(parsed)))
    }

    /// Sends a frame that gets no reply the soak waits for (a ping without an id).
    func sendUnanswered(_ text: String) {
        guard let wire else { return channel?.send(text: text) ?? () }
        guard let parsed = try? ClientFrameParser.parse(text) else { return }
        carryOut(wire.encode(ImockJSONDialect.command(parsed)))
    }

    /// The upgrade target of a wire that logs in with it (OpenIM), once its login was encoded.
    private(set) var loginTarget: String?

    /// Sends what a wire asks to send and hands the driver what it heard, in its words.
    func carryOut(_ output: ClientWireOutput) {
        if let target = output.connect { loginTarget = target }
        for message in output.send {
            switch message {
            case .text(let text): channel?.send(text: text)
            case .binary(let bytes): channel?.send(binary: bytes)
            }
        }
        for input in output.inputs {
            switch input {
            case .success(let input): driver?.received(ServerFrame(input).text, on: self)
            case .failure(let error): driver?.anomaly("connection \(serial) (\(transport.rawValue)): \(error)")
            }
        }
    }

    /// Drops the connection without a goodbye (FIN, or RST), as a device that loses its network.
    func abort(reset: Bool) {
        aborted = true
        channel?.abort(reset ? .reset : .immediately)
    }

    // MARK: WebSocketDelegate

    func webSocketDidOpen(_ channel: WebSocketChannel) {}

    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        guard let wire else { return driver?.received(text, on: self) ?? () }
        carryOut(wire.decode(.text(text)))
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        guard let wire else { return driver?.anomaly("a binary message on connection \(serial)") ?? () }
        carryOut(wire.decode(.binary(bytes)))
    }

    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        driver?.closed(self, code: code.rawValue, reason: reason)
    }
}
