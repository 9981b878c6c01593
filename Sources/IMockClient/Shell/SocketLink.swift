import IMockWire
import IMockNet

/// One WebSocket of the client, tagged with the generation the state machine gave it.
/// Loop-confined; reports to the engine only while the engine still lists it.
final class SocketLink: WebSocketDelegate {
    let generation: UInt64
    private weak var engine: ClientEngine?
    private(set) var channel: WebSocketChannel?
    /// A close asked for before the handshake finished.
    private var pendingClose: UInt16?

    init(generation: UInt64, engine: ClientEngine) {
        self.generation = generation
        self.engine = engine
    }

    /// The handshake finished: keep the channel (a pending close is done in `webSocketDidOpen`).
    func attach(_ channel: WebSocketChannel) {
        self.channel = channel
    }

    /// Whether the handshake finished and the connection is open.
    var isOpen: Bool { channel?.isOpen ?? false }

    /// Sends a text frame (dropped when not open).
    func send(_ text: String) {
        guard let channel, channel.isOpen else { return }
        channel.send(text: text)
    }

    /// Closes with `code`; before the handshake finished, as soon as it does.
    func close(code: UInt16) {
        if let channel {
            channel.close(code: WebSocketCloseCode(code))
        } else {
            pendingClose = code
        }
    }

    func webSocketDidOpen(_ channel: WebSocketChannel) {
        self.channel = channel
        if let pendingClose {
            channel.close(code: WebSocketCloseCode(pendingClose))
            return
        }
        engine?.socketReported(self, .socketOpened(generation: generation))
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        engine?.socketReported(self, .textReceived(generation: generation, text: text))
    }

    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        self.channel = nil
        let reported: UInt16? = code == .abnormalClosure ? nil : code.rawValue
        engine?.socketReported(self, .socketClosed(generation: generation, code: reported, reason: reason))
    }
}
