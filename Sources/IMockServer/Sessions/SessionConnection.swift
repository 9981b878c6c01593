import IMockCore
import IMockNet

/// One `/ws` connection: hands its events to the server's `SessionHub`.
/// The imock protocol uses text frames only; a binary frame closes the connection with 1003.
final class SessionConnection: WebSocketDelegate {
    private unowned let server: MockServer
    let peer: SocketAddress?

    init(server: MockServer, peer: SocketAddress?) {
        self.server = server
        self.peer = peer
    }

    func webSocketDidOpen(_ channel: WebSocketChannel) {
        server.sessionOpened(channel, peer: peer)
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        server.sessionReceived(text, on: channel)
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        channel.close(code: .unsupportedData, reason: "the imock protocol uses text frames")
    }

    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        server.sessionClosed(channel, code: code)
    }
}
