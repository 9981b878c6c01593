import IMockCommon
import IMockCore
import IMockNet
import IMockTestSupport
import IMockWire

/// An msync device for server tests: the Web SDK's frames over a loopback WebSocket (binary).
final class MsyncTestDevice: Sendable {
    static let appKey = SessionFixture.app
    let socket: TestWebSocket
    let user: String

    private init(socket: TestWebSocket, user: String) {
        self.socket = socket
        self.user = user
    }

    /// Connects to `/websocket` and sends a PROVISION; returns the device and the Provision reply.
    static func login(
        _ fixture: SessionFixture, user: String, token: String, resource: String
    ) async throws -> (MsyncTestDevice, MsyncPB.Provision) {
        let socket = try await TestWebSocket.connect(loop: fixture.clientLoop, port: fixture.server.port, path: MsyncDialect.path)
        let device = MsyncTestDevice(socket: socket, user: user)
        socket.send(binary: provision(user: user, token: token, resource: resource).protobufBytes())
        let reply = try await device.next(.provision, as: MsyncPB.Provision.self)
        return (device, reply)
    }

    /// The Web SDK's PROVISION of `user` with `token` on device (and resource) `resource`.
    static func provision(user: String, token: String, resource: String) -> MsyncPB.MSync {
        var provision = MsyncPB.Provision()
        provision.osType = .other
        provision.deviceUuid = resource
        provision.deviceName = "webim"
        provision.resource = resource
        provision.authToken = #"{"token":"$t$\#(token)"}"#
        var msync = MsyncPB.MSync(command: .provision, payload: provision)
        msync.guid = jid(user, resource: resource)
        msync.auth = "$t$" + token
        return msync
    }

    static func jid(_ name: String, resource: String? = nil) -> MsyncPB.JID {
        MsyncPB.JID(appKey: appKey, name: name, domain: MsyncDialect.userDomain, clientResource: resource)
    }

    func send(_ command: MsyncPB.MSync.Command, _ payload: some ProtobufMessage) {
        socket.send(binary: MsyncPB.MSync(command: command, payload: payload).protobufBytes())
    }

    /// The next envelope (any command); throws on a close or a time-out.
    func nextEnvelope() async throws -> MsyncPB.MSync {
        switch await socket.next() {
        case .binary(let bytes)?: return try MsyncPB.MSync(protobufBytes: bytes)
        case let other: throw FixtureFailure(description: "expected an msync envelope, got \(String(describing: other))")
        }
    }

    /// The payload of the next envelope, which must be `command`.
    func next<M: ProtobufMessage>(_ command: MsyncPB.MSync.Command, as type: M.Type) async throws -> M {
        let envelope = try await nextEnvelope()
        guard envelope.command == command else {
            throw FixtureFailure(description: "expected \(command), got \(String(describing: envelope.command))")
        }
        return try envelope.decodePayload(as: type)
    }

    /// UNREAD, and its answer.
    func unread() async throws -> MsyncPB.CommUnreadDL {
        send(.unread, MsyncPB.CommUnreadUL())
        return try await next(.unread, as: MsyncPB.CommUnreadDL.self)
    }

    /// The queues and counts of an UNREAD answer: `["bob=2"]`.
    func unreadQueues() async throws -> [String] {
        try await unread().unread.map { "\($0.queue?.name ?? "")=\($0.n ?? 0)" }
    }

    /// A pull of `queue` (confirming the page of `key`), and its page.
    func pull(_ queue: String, key: UInt64? = nil) async throws -> MsyncPB.CommSyncDL {
        send(.sync, MsyncPB.CommSyncUL.pull(Self.jid(queue), key: key))
        return try await next(.sync, as: MsyncPB.CommSyncDL.self)
    }

    /// A text to `to`; returns the ack.
    func sendText(_ text: String, to: String, id: UInt64) async throws -> MsyncPB.CommSyncDL {
        send(.sync, MsyncPB.CommSyncUL.send(.text(id: id, from: Self.jid(user), to: Self.jid(to), text: text)))
        return try await next(.sync, as: MsyncPB.CommSyncDL.self)
    }

    /// The texts and ids of a page.
    static func messages(_ page: MsyncPB.CommSyncDL) throws -> [String] {
        try page.metas.map { meta in
            let text = try meta.decodePayload(as: MsyncPB.MessageBody.self).contents.first?.text ?? ""
            return "\(meta.id ?? 0):\(text)"
        }
    }

    func close() { socket.close(code: 1000) }
}
