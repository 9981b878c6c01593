import IMockCore

/// Easemob / Agora Chat's msync protocol as a dialect (docs/PROTOCOL-MSYNC.md): one
/// ``MsyncPB/MSync`` envelope per WebSocket message, binary or base64 text (answered the way
/// it came), mapped onto the engine:
///
/// | client → server | engine | server → client |
/// |---|---|---|
/// | PROVISION | `login` | `Provision{status, resource, authToken:{"expires_in":<ms>}}` |
/// | UNREAD (also the heartbeat) | `ping` | `CommUnreadDL{status, unread, timestamp}` |
/// | SYNC `CommSyncUL{meta}` (CHAT text) | `send` | `CommSyncDL{status, metaId, serverId, timestamp}` |
/// | SYNC `CommSyncUL{queue, key?}` | `ack` of a confirmed page | `CommSyncDL{metas, nextKey, queue, isLast, timestamp}` |
/// | LOGOUT | `logout` | `Logout{status}`, close 1000 |
///
/// Messages pushed by the engine wait in the connection's ``MsyncInbox`` until pulled; a live
/// one is announced with `NOTICE{queue}`. Kicks 206, 207, 216 and 217 are `STATISTIC` metas
/// (the new device's extension in `reason` for 206); token expiry is a `CommUnreadDL` whose
/// `timestamp` is past the expiry (the SDK then closes by itself); any other kick is the
/// PROVISION failure the SDK would get logging in again (``MsyncStatusTable``). Each ends
/// with a close `4000 + code`.
public struct MsyncDialect: WireDialect {
    /// The WebSocket path of the plain (non-SockJS) transport.
    public static let path = "/websocket"
    /// Most messages in one SYNC page.
    public static let defaultPageSize = 20
    /// The domain of user JIDs.
    public static let userDomain = "easemob.com"
    /// How long the server waits after a goodbye (kick, refusal, expiry) before it closes: the
    /// Web SDK handles a message asynchronously, and a close that overtakes a kick makes it
    /// reconnect instead of reporting the kick.
    public static let goodbyeLingerMs = 200

    static let provisionTag = RequestTag("provision")
    static let unreadTag = RequestTag("unread")
    static let logoutTag = RequestTag("logout")
    static let sendTagPrefix = "send:"

    public let name = "msync"

    /// Binary or base64 text; `nil` follows each incoming message.
    let fixedFraming: MsyncFraming?
    var framing: MsyncFraming = .binary
    var nowMs: Int64 = 0
    /// The client's address from its PROVISION (app key and user as it wrote them).
    var selfJID: MsyncPB.JID? {
        didSet { appKeyField = Self.appKeyField(selfJID?.appKey) }
    }
    /// `selfJID`'s app key as field 1 of a JID (empty without one), for ``writeUserJID(_:appKeyField:field:to:)``.
    private(set) var appKeyField: [UInt8] = []
    var loggedIn = false
    var inbox: MsyncInbox
    /// Between the engine's `offlineStart` and `offlineFinish` pushes.
    var receivingOffline = false
    var tokenExpiresAt: Int64?
    /// Recipients of sends waiting for the engine, by client meta id.
    var pendingSends: [UInt64: String] = [:]
    var nextStatisticID: UInt64 = 1
    /// Whether the SYNC frames of a message's path are read by ``MsyncSyncScanner`` (false:
    /// every frame through the general decoders, which tests compare it with).
    var scansSyncFrames = true

    private static func appKeyField(_ appKey: String?) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.write(appKey, as: ProtobufString.self, field: 1)
        return writer.bytes
    }

    /// A dialect for one connection. `framing` fixes how envelopes travel (SockJS: base64
    /// text); by default each reply follows the message it answers.
    public init(pageSize: Int = MsyncDialect.defaultPageSize, framing: MsyncFraming? = nil) {
        self.inbox = MsyncInbox(pageSize: pageSize)
        self.fixedFraming = framing
        self.framing = framing ?? .binary
    }

    public mutating func observe(serverTimeMs: Int64) { nowMs = serverTimeMs }

    /// The Web SDK sends its UNREAD heartbeat after 30 s without a message *from* the server,
    /// checked every 30 s: a quiet connection hears from it every 30–60 s.
    public static let idleTimeout: Duration = .seconds(90)

    public var minimumIdleTimeout: Duration? { Self.idleTimeout }

    /// The chat messages the inbox holds for the device (pulled or not, not confirmed).
    public var heldMessages: [ChatMessage] { inbox.allMessages }

    /// Pages are confirmed by key: the protocol's own ack.
    public var deliveryConfirmation: DeliveryConfirmation { .protocol }

    // MARK: Decoding

    public mutating func decode(_ message: WireMessage) -> [DialectInput] {
        let envelope: MsyncPB.MSync
        do throws(MsyncWireError) {
            let (bytes, framing) = try MsyncEnvelope.envelopeBytes(message)
            if scansSyncFrames, let upload = MsyncSyncScanner.scan(bytes) {
                if fixedFraming == nil { self.framing = framing }
                switch upload {
                case .pull(let queue, let key): return pull(queue, key: key)
                case .send(let metaId, let recipient, let text): return relay(metaId, to: recipient, text: text)
                }
            }
            envelope = try MsyncEnvelope.decode(bytes)
            if fixedFraming == nil { self.framing = framing }
        } catch {
            return [.close(Self.refusal(code: 1007, error.description))]
        }
        switch envelope.command ?? .sync {
        case .provision: return provision(envelope)
        case .unread: return [.command(.ping(Self.unreadTag))]
        case .sync: return sync(envelope)
        case .logout: return [.command(.logout(Self.logoutTag, unbindDeviceToken: false))]
        case .notice: return []
        case .unrecognized(let value):
            return [.close(Self.refusal(code: 1003, "msync: unknown command \(value)"))]
        }
    }

    private mutating func provision(_ envelope: MsyncPB.MSync) -> [DialectInput] {
        let provision: MsyncPB.Provision
        do {
            provision = try envelope.decodePayload(as: MsyncPB.Provision.self)
        } catch {
            var reply = MsyncPB.Provision()
            reply.status = MsyncPB.Status(errorCode: .pbParserError, reason: "msync: \(error)")
            return [.reply(wire(.provision, reply)), .close(Self.refusal(code: 1007, "msync: \(error)"))]
        }
        let request: LoginRequest
        switch MsyncProvision.loginRequest(envelope: envelope, provision: provision) {
        case .success(let made): request = made
        case .failure:
            // An osType the schema does not know: the engine refuses the device (after the
            // app, user and token checks), so the refusal is journalled like any other.
            request = LoginRequest(
                appKey: envelope.guid?.appKey ?? "", user: envelope.guid?.name ?? "",
                token: MsyncProvision.token(auth: envelope.auth, authToken: provision.authToken),
                device: DeviceDescription(platform: .easemob(.web), uuid: ""), renewsTokenOverREST: true,
                tokenWarningDelayMs: LoginRequest.heartbeatWarningDelayMs)
        }
        if !loggedIn { selfJID = MsyncPB.JID(appKey: request.appKey, name: request.user, domain: Self.userDomain) }
        return [.command(.login(Self.provisionTag, request))]
    }

    private mutating func sync(_ envelope: MsyncPB.MSync) -> [DialectInput] {
        let upload: MsyncPB.CommSyncUL
        do {
            upload = try envelope.decodePayload(as: MsyncPB.CommSyncUL.self)
        } catch {
            var reply = MsyncPB.CommSyncDL()
            reply.status = MsyncPB.Status(errorCode: .pbParserError, reason: "msync: \(error)")
            reply.timestamp = timestamp
            return [.reply(wire(.sync, reply))]
        }
        if let meta = upload.meta { return send(meta) }
        if let queue = upload.queue { return pull(queue, key: upload.key) }
        return [.reply(wire(.sync, syncStatus(MsyncPB.Status(errorCode: .missingParameter, reason: "Sorry, a SYNC needs a meta or a queue"))))]
    }

    private mutating func send(_ meta: MsyncPB.Meta) -> [DialectInput] {
        let metaId = meta.id ?? 0
        switch meta.ns ?? .statistic {
        case .statistic:
            return []  // the client's own login statistic: no answer
        case .chat:
            break
        case .muc:
            return [.reply(wire(.sync, sendAck(metaId, MsyncPB.Status(errorCode: .fail, reason: "group not found"))))]
        default:
            return [.reply(wire(.sync, sendAck(metaId, Self.textOnly)))]
        }
        guard let body = try? meta.decodePayload(as: MsyncPB.MessageBody.self) else {
            return [.reply(wire(.sync, sendAck(metaId, MsyncPB.Status(errorCode: .pbParserError, reason: "msync: the meta's payload is not a MessageBody"))))]
        }
        switch body.type ?? .normal {
        case .readAck, .deliverAck, .channelAck:
            // Receipts are accepted and not relayed: imock has no read state.
            var ack = sendAck(metaId, MsyncPB.Status())
            ack.serverId = metaId
            return [.reply(wire(.sync, ack))]
        case .normal, .chat:
            break
        default:
            return [.reply(wire(.sync, sendAck(metaId, Self.textOnly)))]
        }
        guard body.contents.count == 1, let content = body.contents.first, (content.type ?? .text) == .text,
            let text = content.text
        else { return [.reply(wire(.sync, sendAck(metaId, Self.textOnly)))] }
        return relay(metaId, to: meta.to?.name ?? body.to?.name ?? "", text: text)
    }

    /// The engine's `send` of a one-to-one text, answered later by meta id.
    private mutating func relay(_ metaId: UInt64, to recipient: String, text: String) -> [DialectInput] {
        pendingSends[metaId] = recipient
        return [.command(.send(RequestTag(Self.sendTagPrefix + String(metaId)), to: recipient, text: text))]
    }

    static let textOnly = MsyncPB.Status(errorCode: .fail, reason: "Sorry, imock relays one-to-one text messages only")

    private mutating func pull(_ queue: MsyncPB.JID, key: UInt64?) -> [DialectInput] {
        guard loggedIn else {
            var reply = syncStatus(MsyncPB.Status(errorCode: .unauthorized, reason: "Sorry, log in first"))
            reply.queue = queue
            reply.isLast = true
            return [.reply(wire(.sync, reply))]
        }
        let page = inbox.pull(queue.name ?? "", key: key)
        var inputs: [DialectInput] = []
        inputs.reserveCapacity(page.confirmed.count + 1)
        for message in page.confirmed {
            inputs.append(.command(.ack(RequestTag("ack:" + message.messageId), messageId: message.messageId)))
        }
        // A page of the offline sync (faults see it so); its messages are confirmed by the
        // device's next pull, not by the transport: it carries no ids for the ledger.
        inputs.append(.replyCarrying(pageMessage(page, of: queue), messageIds: []))
        return inputs
    }
}
