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
    private let fixedFraming: MsyncFraming?
    private var framing: MsyncFraming = .binary
    private var nowMs: Int64 = 0
    /// The client's address from its PROVISION (app key and user as it wrote them).
    private var selfJID: MsyncPB.JID?
    private var loggedIn = false
    private var inbox: MsyncInbox
    /// Between the engine's `offlineStart` and `offlineFinish` pushes.
    private var receivingOffline = false
    private var tokenExpiresAt: Int64?
    /// Recipients of sends waiting for the engine, by client meta id.
    private var pendingSends: [UInt64: String] = [:]
    private var nextStatisticID: UInt64 = 1

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

    public var undeliveredMessages: [ChatMessage] { inbox.liveMessages }

    // MARK: Decoding

    public mutating func decode(_ message: WireMessage) -> [DialectInput] {
        let envelope: MsyncPB.MSync
        do throws(MsyncWireError) {
            let (read, framing) = try MsyncEnvelope.read(message)
            envelope = read
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
                device: DeviceDescription(platform: .easemob(.web), uuid: ""), renewsTokenOverREST: true)
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
        let recipient = meta.to?.name ?? body.to?.name ?? ""
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
        var reply = syncStatus(MsyncPB.Status())
        reply.metas = page.messages.map(meta)
        reply.nextKey = page.nextKey
        reply.queue = queue
        reply.isLast = page.nextKey == nil
        let acks: [DialectInput] = page.confirmedOffline.map {
            .command(.ack(RequestTag("ack:" + $0.messageId), messageId: $0.messageId))
        }
        return acks + [.reply(wire(.sync, reply))]
    }

    // MARK: Encoding

    public mutating func encode(reply: SessionReply, tag: RequestTag?) -> [WireMessage] {
        switch reply {
        case .loginAccepted(let resource, let expiresAt, _):
            loggedIn = true
            tokenExpiresAt = expiresAt
            selfJID?.clientResource = resource
            var provision = MsyncPB.Provision()
            provision.status = MsyncPB.Status()
            provision.resource = resource
            provision.authToken = expiresAt.map(MsyncProvision.replyAuthToken)
            return [wire(.provision, provision)]
        case .pong(let serverTime):
            var unread = MsyncPB.CommUnreadDL()
            unread.status = MsyncPB.Status()
            unread.unread = loggedIn ? inbox.unread.map { MsyncPB.MetaQueue(queue: jid($0.peer), n: UInt32(clamping: $0.count)) } : []
            unread.timestamp = UInt64(max(0, serverTime))
            return [wire(.unread, unread)]
        case .tokenRenewed(let expiresAt):
            tokenExpiresAt = expiresAt
            return []
        case .loggedOut:
            var logout = MsyncPB.Logout()
            logout.status = MsyncPB.Status()
            return [wire(.logout, logout)]
        case .sent(let messageId, let timestamp):
            guard let metaId = sendMetaID(tag) else { return [] }
            pendingSends[metaId] = nil
            var ack = sendAck(metaId, MsyncPB.Status())
            ack.serverId = UInt64(messageId)
            ack.timestamp = UInt64(max(0, timestamp))
            return [wire(.sync, ack)]
        case .refused(let error, _):
            return refusal(error, tag: tag)
        case .devices, .acked:
            return []
        }
    }

    private mutating func refusal(_ error: SessionError, tag: RequestTag?) -> [WireMessage] {
        if tag == Self.provisionTag {
            var provision = MsyncPB.Provision()
            provision.status = MsyncStatusTable.status(for: error)
            return [wire(.provision, provision)]
        }
        if tag == Self.logoutTag {
            var logout = MsyncPB.Logout()
            logout.status = MsyncPB.Status(errorCode: .fail, reason: "Sorry, " + error.message)
            return [wire(.logout, logout)]
        }
        guard let metaId = sendMetaID(tag) else { return [] }
        let recipient = pendingSends.removeValue(forKey: metaId) ?? ""
        let status: MsyncPB.Status =
            switch error {
            case .recipientNotFound, .invalidRecipient:
                // The SDK reads "username … doesn't exist!" as USER_NOT_FOUND.
                MsyncPB.Status(errorCode: .fail, reason: "username \(recipient) doesn't exist!")
            case .notLoggedIn: MsyncPB.Status(errorCode: .unauthorized, reason: "Sorry, log in first")
            default: MsyncPB.Status(errorCode: .fail, reason: "Sorry, " + error.message)
            }
        return [wire(.sync, sendAck(metaId, status))]
    }

    public mutating func encode(push: SessionPush) -> [WireMessage] {
        switch push {
        case .tokenWillExpire:
            // The SDK compares this server time with the expiry it was given and warns.
            return [wire(.unread, serverTimeOnly(nowMs))]
        case .offlineStart:
            receivingOffline = true
            return []
        case .offlineFinish:
            receivingOffline = false
            return []
        case .message(let message):
            let notice = inbox.add(message, offline: receivingOffline)
            guard notice, !receivingOffline else { return [] }
            return [wire(.notice, MsyncPB.CommNotice(queue: jid(message.from)))]
        case .syncStart, .syncFinish:
            return []  // msync has no data-sync frames (the Web SDK syncs over REST)
        }
    }

    public mutating func encode(end: SessionEnd) -> (messages: [WireMessage], close: WireClose) {
        loggedIn = false
        switch end.cause {
        case .loginRefused(_, let error):
            var provision = MsyncPB.Provision()
            provision.status = MsyncStatusTable.status(for: error)
            return ([wire(.provision, provision)], goodbye(code: CloseCode.forCode(error.imockCode), reason: end.reason))
        case .kicked(let code, let by):
            let close = goodbye(code: CloseCode.forCode(code), reason: end.reason)
            if let operation = MsyncKick.operation(forCode: code) {
                let reason = operation == .userLoginAnotherDevice ? by?.extensionInfo : nil
                return ([wire(.sync, statistic(operation, reason: reason))], close)
            }
            if code == KickCode.tokenExpired.rawValue { return ([wire(.unread, serverTimeOnly(expiredTime))], close) }
            var provision = MsyncPB.Provision()
            provision.status = MsyncStatusTable.status(code: code, sentence: end.reason)
            return ([wire(.provision, provision)], close)
        case .tokenExpired:
            let close = goodbye(code: CloseCode.forCode(KickCode.tokenExpired.rawValue), reason: end.reason)
            return ([wire(.unread, serverTimeOnly(expiredTime))], close)
        case .loggedOut, .replaced:
            return ([], WireClose(code: CloseCode.normal, reason: end.reason))
        case .outputOverflow:
            return ([], WireClose(code: CloseCode.outputOverflow, reason: end.reason))
        }
    }

    // MARK: Building messages

    /// A close for bad input; the reason cut to the 123 bytes a close frame holds.
    static func refusal(code: UInt16, _ reason: String) -> WireClose {
        WireClose(code: code, reason: TextLimits.prefix(reason, maximumUTF8Bytes: 123))
    }

    private func goodbye(code: UInt16, reason: String) -> WireClose {
        WireClose(code: code, reason: reason, lingerMs: Self.goodbyeLingerMs)
    }

    private func wire(_ command: MsyncPB.MSync.Command, _ payload: some ProtobufMessage) -> WireMessage {
        MsyncEnvelope.message(MsyncPB.MSync(command: command, payload: payload), framing: framing)
    }

    private var timestamp: UInt64 { UInt64(max(0, nowMs)) }

    /// A time at or after the token's expiry, so the SDK sees it expired.
    private var expiredTime: Int64 { max(nowMs, tokenExpiresAt ?? nowMs) }

    private func serverTimeOnly(_ ms: Int64) -> MsyncPB.CommUnreadDL {
        var unread = MsyncPB.CommUnreadDL()
        unread.status = MsyncPB.Status()
        unread.timestamp = UInt64(max(0, ms))
        return unread
    }

    private func syncStatus(_ status: MsyncPB.Status) -> MsyncPB.CommSyncDL {
        var reply = MsyncPB.CommSyncDL()
        reply.status = status
        reply.timestamp = timestamp
        return reply
    }

    private func sendAck(_ metaId: UInt64, _ status: MsyncPB.Status) -> MsyncPB.CommSyncDL {
        var ack = syncStatus(status)
        ack.metaId = metaId
        return ack
    }

    private func sendMetaID(_ tag: RequestTag?) -> UInt64? {
        guard let raw = tag?.rawValue, raw.hasPrefix(Self.sendTagPrefix) else { return nil }
        return UInt64(raw.dropFirst(Self.sendTagPrefix.count))
    }

    /// A user JID of this connection's app.
    private func jid(_ user: String) -> MsyncPB.JID {
        MsyncPB.JID(appKey: selfJID?.appKey, name: user, domain: Self.userDomain)
    }

    /// The meta of a chat message for this connection's user.
    private func meta(_ message: ChatMessage) -> MsyncPB.Meta {
        .text(
            id: UInt64(message.messageId) ?? 0, from: jid(message.from), to: jid(message.to), text: message.text,
            timestamp: UInt64(max(0, message.timestamp)))
    }

    /// A kick: one STATISTIC meta from and to the user, in a page of the user's own queue.
    private mutating func statistic(_ operation: MsyncPB.StatisticsBody.Operation, reason: String?) -> MsyncPB.CommSyncDL {
        let me = selfJID.map { MsyncPB.JID(appKey: $0.appKey, name: $0.name, domain: Self.userDomain) } ?? MsyncPB.JID()
        var meta = MsyncPB.Meta()
        // The SDK drops a meta whose id it has seen: far above the engine's message ids.
        meta.id = UInt64(max(0, nowMs)) &* 1000 &+ nextStatisticID
        nextStatisticID += 1
        meta.from = me
        meta.to = me
        meta.timestamp = timestamp
        meta.ns = .statistic
        meta.payload = MsyncPB.StatisticsBody(operation: operation, reason: reason).protobufBytes()
        var page = syncStatus(MsyncPB.Status())
        page.metas = [meta]
        page.queue = me
        page.isLast = true
        return page
    }
}

/// The kicks the Web SDK knows as `STATISTIC` operations (reference easemob.md §4.4).
public enum MsyncKick {
    /// The operation for a kick code: 207 → USER_REMOVED, 206 → USER_LOGIN_ANOTHER_DEVICE,
    /// 216 → USER_KICKED_BY_CHANGE_PASSWORD, 217 → USER_KICKED_BY_OTHER_DEVICE; nil otherwise.
    public static func operation(forCode code: Int) -> MsyncPB.StatisticsBody.Operation? {
        switch code {
        case KickCode.userRemoved.rawValue: .userRemoved
        case KickCode.loggedInOnAnotherDevice.rawValue: .userLoginAnotherDevice
        case KickCode.kickedByPasswordChange.rawValue: .userKickedByChangePassword
        case KickCode.kickedByOtherDevice.rawValue: .userKickedByOtherDevice
        default: nil
        }
    }

    /// The kick code of an operation (the reference client's reading); nil for INFORMATION.
    public static func code(of operation: MsyncPB.StatisticsBody.Operation) -> Int? {
        switch operation {
        case .userRemoved: KickCode.userRemoved.rawValue
        case .userLoginAnotherDevice: KickCode.loggedInOnAnotherDevice.rawValue
        case .userKickedByChangePassword: KickCode.kickedByPasswordChange.rawValue
        case .userKickedByOtherDevice: KickCode.kickedByOtherDevice.rawValue
        case .information, .unrecognized: nil
        }
    }
}
