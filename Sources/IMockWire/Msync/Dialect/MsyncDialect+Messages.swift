import IMockCore

/// The msync messages the dialect writes, and the tags it gives requests.
extension MsyncDialect {
    /// A close for bad input; the reason cut to the 123 bytes a close frame holds.
    static func refusal(code: UInt16, _ reason: String) -> WireClose {
        WireClose(code: code, reason: TextLimits.prefix(reason, maximumUTF8Bytes: 123))
    }

    func goodbye(code: UInt16, reason: String) -> WireClose {
        WireClose(code: code, reason: reason, lingerMs: Self.goodbyeLingerMs)
    }

    func wire(_ command: MsyncPB.MSync.Command, _ payload: some ProtobufMessage) -> WireMessage {
        MsyncEnvelope.message(command: command, payload: payload, framing: framing)
    }

    var timestamp: UInt64 { UInt64(max(0, nowMs)) }

    /// A time at or after the token's expiry, so the SDK sees it expired.
    var expiredTime: Int64 { max(nowMs, tokenExpiresAt ?? nowMs) }

    func serverTimeOnly(_ ms: Int64) -> MsyncPB.CommUnreadDL {
        var unread = MsyncPB.CommUnreadDL()
        unread.status = MsyncPB.Status()
        unread.timestamp = UInt64(max(0, ms))
        return unread
    }

    /// A `CommSyncDL` with `status`, the server time and a `queue` — the user's own unless the
    /// caller names another: the SDK reads `queue.name` of every one (reference §1.3).
    func syncStatus(_ status: MsyncPB.Status) -> MsyncPB.CommSyncDL {
        var reply = MsyncPB.CommSyncDL()
        reply.status = status
        reply.timestamp = timestamp
        reply.queue = ownQueue
        return reply
    }

    /// The answer to the send of meta `metaId`, in the recipient's queue when known.
    func sendAck(_ metaId: UInt64, _ status: MsyncPB.Status, to recipient: String? = nil) -> MsyncPB.CommSyncDL {
        var ack = syncStatus(status)
        ack.metaId = metaId
        if let recipient, !recipient.isEmpty { ack.queue = jid(recipient) }
        return ack
    }

    /// The answer to an accepted send: `sendAck(metaId, Status(), to: recipient)` with
    /// `serverId` and `timestamp` — written in place when it names the recipient's queue.
    func sentAnswer(_ metaId: UInt64, serverId: UInt64?, timestamp: UInt64, to recipient: String?) -> WireMessage {
        guard let recipient, !recipient.isEmpty else {
            var ack = sendAck(metaId, MsyncPB.Status(), to: recipient)
            ack.serverId = serverId
            ack.timestamp = timestamp
            return wire(.sync, ack)
        }
        let appKeyField = appKeyField
        return MsyncEnvelope.message(command: .sync, framing: framing) { writer in
            writer.write(MsyncPB.Status(), as: MsyncPB.Status.self, field: 1)
            writer.write(metaId, as: ProtobufUInt64.self, field: 2)
            writer.write(serverId, as: ProtobufUInt64.self, field: 3)
            Self.writeUserJID(recipient, appKeyField: appKeyField, field: 6, to: &writer)
            writer.write(timestamp, as: ProtobufUInt64.self, field: 8)
        }
    }

    /// The user's own queue (its JID without a resource).
    var ownQueue: MsyncPB.JID {
        MsyncPB.JID(appKey: selfJID?.appKey, name: selfJID?.name, domain: Self.userDomain)
    }

    func sendMetaID(_ tag: RequestTag?) -> UInt64? {
        guard let raw = tag?.rawValue, raw.hasPrefix(Self.sendTagPrefix) else { return nil }
        return UInt64(raw.dropFirst(Self.sendTagPrefix.count))
    }

    /// A user JID of this connection's app.
    func jid(_ user: String) -> MsyncPB.JID {
        MsyncPB.JID(appKey: selfJID?.appKey, name: user, domain: Self.userDomain)
    }

    /// Writes `jid(user)` as field `field` — the same bytes — from its app key's and domain's
    /// fields encoded once (the connection's ``appKeyField``): only the name is written as a
    /// string. Static, so that the writing closures of a frame capture the field, not the
    /// dialect (a capture of `self` copied the whole dialect, inbox and all, per frame).
    static func writeUserJID(_ user: String, appKeyField: [UInt8], field: Int, to writer: inout ProtobufWriter) {
        writer.writeTag(field: field, wireType: .lengthDelimited)
        writer.writeLengthDelimited { jid in
            jid.writeEncoded(appKeyField)
            jid.write(user, as: ProtobufString.self, field: 2)
            jid.writeEncoded(Self.userDomainField)
        }
    }

    /// ``userDomain`` as field 3 of a JID.
    static let userDomainField: [UInt8] = {
        var writer = ProtobufWriter()
        writer.write(userDomain, as: ProtobufString.self, field: 3)
        return writer.bytes
    }()

    /// The meta of a chat message for this connection's user: the value ``pageMessage(_:of:)``
    /// writes in place (the tests hold the two equal).
    func meta(_ message: ChatMessage) -> MsyncPB.Meta {
        .text(
            id: UInt64(message.messageId) ?? 0, from: jid(message.from), to: jid(message.to), text: message.text,
            timestamp: UInt64(max(0, message.timestamp)))
    }

    /// The answer to a pull: `syncStatus(Status())` with the page's metas (``meta(_:)``),
    /// `nextKey`, `queue` and `isLast` — written straight into the envelope's bytes, each meta
    /// and its body in place (``MsyncPB/Meta/writeText(id:from:to:text:timestamp:to:)``).
    func pageMessage(_ page: MsyncInbox.Page, of queue: MsyncPB.JID) -> WireMessage {
        let appKeyField = appKeyField
        let timestamp = timestamp
        return MsyncEnvelope.message(command: .sync, framing: framing) { writer in
            writer.write(MsyncPB.Status(), as: MsyncPB.Status.self, field: 1)
            for message in page.messages {
                writer.writeTag(field: 4, wireType: .lengthDelimited)
                writer.writeLengthDelimited { metaWriter in
                    MsyncPB.Meta.writeText(
                        id: UInt64(message.messageId) ?? 0, text: message.text,
                        timestamp: UInt64(max(0, message.timestamp)), to: &metaWriter
                    ) { writer, field in
                        Self.writeUserJID(field == 2 ? message.from : message.to, appKeyField: appKeyField, field: field, to: &writer)
                    }
                }
            }
            writer.write(page.nextKey, as: ProtobufUInt64.self, field: 5)
            writer.write(queue, as: MsyncPB.JID.self, field: 6)
            writer.write(page.nextKey == nil, as: ProtobufBool.self, field: 7)
            writer.write(timestamp, as: ProtobufUInt64.self, field: 8)
        }
    }

    /// A kick: one STATISTIC meta from and to the user, in a page of the user's own queue.
    mutating func statistic(_ operation: MsyncPB.StatisticsBody.Operation, reason: String?) -> MsyncPB.CommSyncDL {
        let me = ownQueue
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
