import IMockCommon
import IMockCore
import IMockWire

/// Client frames as the Web SDK writes them, and readers of the server's, for dialect tests.
enum MsyncClient {
    static let appKey = "org#app"

    static func jid(_ name: String, resource: String? = nil) -> MsyncPB.JID {
        MsyncPB.JID(appKey: appKey, name: name, domain: "easemob.com", clientResource: resource)
    }

    static func envelope(_ command: MsyncPB.MSync.Command, _ payload: some ProtobufMessage) -> [UInt8] {
        MsyncPB.MSync(command: command, payload: payload).protobufBytes()
    }

    /// The 4.17.0 PROVISION (reference easemob-web-sdk.md §1.3).
    static func provision(
        user: String = "alice", token: String = "TOKEN", resource: String = "webim_wx_1", loginExtension: String? = nil,
        osType: MsyncPB.Provision.OsType = .other, authToken: String? = nil
    ) -> [UInt8] {
        var provision = MsyncPB.Provision()
        provision.osType = osType
        provision.version = "4.17.0"
        provision.compressType = [.none]
        provision.encryptType = [.none]
        provision.deviceUuid = "wx_1"
        provision.deviceName = "webim"
        provision.resource = resource
        provision.authToken = authToken ?? #"{"token":"$t$\#(token)"}"#
        provision.sessionId = "1700000000000:"
        provision.actionVersion = "v5.1"
        provision.reason = loginExtension
        var msync = MsyncPB.MSync(command: .provision, payload: provision)
        msync.version = .msyncV1
        msync.guid = jid(user, resource: resource)
        msync.auth = "$t$" + token
        msync.deviceId = 0
        msync.encryptType = [.none]
        return msync.protobufBytes()
    }

    static let unread = MsyncPB.MSync(command: .unread, payload: MsyncPB.CommUnreadUL()).protobufBytes()

    static func send(id: UInt64, to: String, text: String, from: String = "alice") -> [UInt8] {
        envelope(.sync, MsyncPB.CommSyncUL.send(.text(id: id, from: jid(from), to: jid(to), text: text)))
    }

    static func pull(_ queue: String, key: UInt64? = nil) -> [UInt8] {
        envelope(.sync, MsyncPB.CommSyncUL.pull(jid(queue), key: key))
    }

    /// The envelope of a server message (binary or base64 text).
    static func read(_ message: WireMessage) throws -> MsyncPB.MSync {
        switch message {
        case .binary(let bytes): return try MsyncPB.MSync(protobufBytes: bytes)
        case .text(let text): return try MsyncPB.MSync(protobufBytes: Base64.decode(text) ?? [])
        }
    }

    static func payload<M: ProtobufMessage>(_ message: WireMessage, as type: M.Type) throws -> M {
        try read(message).decodePayload(as: type)
    }

    /// The texts of a page's metas.
    static func texts(_ page: MsyncPB.CommSyncDL) throws -> [String] {
        try page.metas.map { try $0.decodePayload(as: MsyncPB.MessageBody.self).contents.first?.text ?? "" }
    }
}

extension ChatMessage {
    static func sample(_ id: Int, from: String = "bob", to: String = "alice") -> ChatMessage {
        ChatMessage(messageId: String(id), from: from, to: to, text: "m\(id)", timestamp: 1_700_000_000_000 + Int64(id))
    }
}
