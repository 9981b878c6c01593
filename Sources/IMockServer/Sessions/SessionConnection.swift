import IMockCore
import IMockNet
import IMockWire

/// One session connection of any dialect: hands its events to the server's `SessionHub`; the
/// dialect decides what a text or binary message means.
final class SessionConnection: WebSocketDelegate {
    private unowned let server: MockServer
    /// What the connection opens with until it opened (then the hub holds the dialect), then
    /// the id the hub gave it: an open connection's delegate is two words and a tag.
    private var phase: Phase

    private enum Phase {
        case opening(Opening)
        case open(ConnectionID)
    }

    /// The hub's id of the connection, once it opened.
    private var id: ConnectionID? {
        if case .open(let id) = phase { id } else { nil }
    }

    private final class Opening {
        let dialect: any WireDialect
        let peer: SocketAddress?
        /// A session logged in during the upgrade, opened with the connection.
        let upgrade: UpgradeSession?

        init(dialect: any WireDialect, peer: SocketAddress?, upgrade: UpgradeSession?) {
            self.dialect = dialect
            self.peer = peer
            self.upgrade = upgrade
        }
    }

    init(server: MockServer, dialect: any WireDialect, peer: SocketAddress?, upgrade: UpgradeSession? = nil) {
        self.server = server
        phase = .opening(Opening(dialect: dialect, peer: peer, upgrade: upgrade))
    }

    func webSocketDidOpen(_ channel: WebSocketChannel) {
        guard case .opening(let opening) = phase else { return }
        phase = .open(server.sessionOpened(channel, dialect: opening.dialect, peer: opening.peer, upgrade: opening.upgrade))
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        if let id { server.sessionReceived(.text(text), on: id) }
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        if let id { server.sessionReceived(.binary(bytes), on: id) }
    }

    /// A ping is activity (the OpenIM Go SDK's only heartbeat is a ping control frame).
    func webSocket(_ channel: WebSocketChannel, didReceivePing payload: [UInt8]) {
        if let id { server.sessionActive(id) }
    }

    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        if let id { server.sessionClosed(id, code: code) }
    }
}
