import IMockCore
import IMockNet
import IMockWire

/// One session connection of any dialect: hands its events to the server's `SessionHub`; the
/// dialect decides what a text or binary message means.
final class SessionConnection: WebSocketDelegate {
    private unowned let server: MockServer
    let peer: SocketAddress?
    private let dialect: any WireDialect

    init(server: MockServer, dialect: any WireDialect, peer: SocketAddress?) {
        self.server = server
        self.dialect = dialect
        self.peer = peer
    }

    func webSocketDidOpen(_ channel: WebSocketChannel) {
        server.sessionOpened(channel, dialect: dialect, peer: peer)
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        server.sessionReceived(.text(text), on: channel)
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        server.sessionReceived(.binary(bytes), on: channel)
    }

    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        server.sessionClosed(channel, code: code)
    }
}
