import IMockNet

/// Sends the imock `ping` op on one `/ws` connection and waits for its `pong` before sending
/// the next.
final class PingClient: LoadClient, WebSocketDelegate {
    private static let request = #"{"op":"ping","id":"1"}"#
    /// The reply, `{"op":"pong","id":"1","serverTime":…}`, is recognised by these members
    /// (in any order) without a full JSON parse, which would dominate the client's cost.
    private static let replyMembers = [#""op":"pong""#, #""id":"1""#]

    private let address: SocketAddress
    private weak var phase: LoadPhase?
    private var channel: WebSocketChannel?
    private var disconnecting = false

    init(address: SocketAddress) { self.address = address }

    func connect(for phase: LoadPhase) {
        self.phase = phase
        WebSocketClient.connect(
            loop: phase.loop, address: address, host: "127.0.0.1", path: "/ws", delegate: self
        ) { [weak self] result in
            switch result {
            case .success(let channel): self?.channel = channel
            case .failure(let error): self?.phase?.clientFailed("WebSocket connect failed: \(error)")
            }
        }
    }

    func sendRequest() {
        channel?.send(text: Self.request)
    }

    func disconnect() {
        disconnecting = true
        channel?.abort(.immediately)
        channel = nil
    }

    // MARK: WebSocketDelegate

    func webSocketDidOpen(_ channel: WebSocketChannel) {
        phase?.clientConnected()
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        if Self.replyMembers.allSatisfy({ text.contains($0) }) {
            phase?.exchangeCompleted(by: self)
        } else {
            phase?.clientFailed("unexpected reply to ping: \(text)")
        }
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        phase?.clientFailed("unexpected binary message")
    }

    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        if !disconnecting { phase?.clientFailed("the server closed the WebSocket with \(code.rawValue) \(reason)") }
    }
}
