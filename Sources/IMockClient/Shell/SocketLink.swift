import IMockWire
import IMockNet

/// One WebSocket of the client, tagged with the generation the state machine gave it.
/// Loop-confined; reports to the engine only while the engine still lists it.
final class SocketLink: WebSocketDelegate {
    let generation: UInt64
    /// How frames travel on this connection.
    let wire: any ClientWire
    private weak var engine: ClientEngine?
    private(set) var channel: WebSocketChannel?
    /// A close asked for before the handshake finished.
    private var pendingClose: UInt16?

    init(generation: UInt64, wire: any ClientWire, engine: ClientEngine) {
        self.generation = generation
        self.wire = wire
        self.engine = engine
    }

    /// The handshake finished: keep the channel (a pending close is done in `webSocketDidOpen`).
    func attach(_ channel: WebSocketChannel) {
        self.channel = channel
    }

    /// Whether the handshake finished and the connection is open.
    var isOpen: Bool { channel?.isOpen ?? false }

    /// Sends a message (dropped when not open).
    func send(_ message: WireMessage) {
        guard let channel, channel.isOpen else { return }
        switch message {
        case .text(let text): channel.send(text: text)
        case .binary(let bytes): channel.send(binary: bytes)
        }
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
        if wire.opensAtLogin {
            engine?.upgraded(self)  // the socket was reported open before; this is the login's answer
        } else {
            engine?.socketOpened(self)
        }
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        engine?.messageReceived(self, .text(text))
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        engine?.messageReceived(self, .binary(bytes))
    }

    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        self.channel = nil
        let reported: UInt16? = code == .abnormalClosure ? nil : code.rawValue
        engine?.socketClosed(self, code: reported, reason: reason)
    }
}
