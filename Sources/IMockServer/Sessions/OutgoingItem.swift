import IMockCore
import IMockNet
import IMockWire

/// What the hub sends a connection through the fault machine (``SessionHub/faultMachine``).
enum OutgoingItem: Sendable {
    /// A message of the connection's dialect, already encoded; `chat` is the id of the chat
    /// message it pushes, if it pushes one, and `carried` those of the pulled messages an answer
    /// carries (the transport ledger notes where it ends).
    case message(WireMessage, chat: String? = nil, carried: [String] = [])
    case close(WebSocketCloseCode, reason: String)

    /// The payload bytes it puts on the wire (a close: none), as `limitData` counts them.
    var payloadBytes: Int {
        switch self {
        case .message(let message, _, _): message.payloadBytes
        case .close: 0
        }
    }
}

extension WireMessage {
    /// Its payload's size in bytes.
    var payloadBytes: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let bytes): bytes.count
        }
    }
}

/// The hub's fault machine: what it holds are outgoing items and, while black-holed, client
/// messages.
typealias HubFaultMachine = FaultMachine<OutgoingItem, WireMessage>
