import IMockNet
import IMockWire

/// A connection upgraded only to say that its login was refused (OpenIM's `isMsgResp`): it
/// sends the dialect's messages, then closes; it never becomes a session.
final class RefusalConnection: WebSocketDelegate {
    private let refusal: WebSocketRefusal

    init(_ refusal: WebSocketRefusal) {
        self.refusal = refusal
    }

    func webSocketDidOpen(_ channel: WebSocketChannel) {
        for message in refusal.messages {
            switch message {
            case .text(let text): channel.send(text: text)
            case .binary(let bytes): channel.send(binary: bytes)
            }
        }
        channel.close(code: WebSocketCloseCode(refusal.close.code), reason: refusal.close.reason)
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {}

    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {}
}
