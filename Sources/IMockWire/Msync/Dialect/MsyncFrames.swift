extension MsyncPB.Meta {
    /// A one-to-one text message as the Web SDK writes it and as imock delivers it:
    /// `Meta{id, from, to, timestamp, ns: CHAT, payload: MessageBody{type: CHAT, from, to, contents: [text]}}`.
    public static func text(id: UInt64, from: MsyncPB.JID, to: MsyncPB.JID, text: String, timestamp: UInt64? = nil) -> Self {
        var body = MsyncPB.MessageBody()
        body.type = .chat
        body.from = from
        body.to = to
        body.contents = [MsyncPB.MessageBody.Content(text: text)]
        var meta = MsyncPB.Meta()
        meta.id = id
        meta.from = from
        meta.to = to
        meta.timestamp = timestamp
        meta.ns = .chat
        meta.payload = body.protobufBytes()
        return meta
    }

    /// Writes the fields of ``text(id:from:to:text:timestamp:)``'s meta — the same bytes —
    /// with its body written in place instead of encoded into a payload array of its own.
    public static func writeText(
        id: UInt64, from: MsyncPB.JID, to: MsyncPB.JID, text: String, timestamp: UInt64?, to writer: inout ProtobufWriter
    ) {
        writer.write(id, as: ProtobufUInt64.self, field: 1)
        writer.write(from, as: MsyncPB.JID.self, field: 2)
        writer.write(to, as: MsyncPB.JID.self, field: 3)
        writer.write(timestamp, as: ProtobufUInt64.self, field: 4)
        writer.write(NameSpace.chat, as: NameSpace.self, field: 5)
        writer.writeTag(field: 6, wireType: .lengthDelimited)
        writer.writeLengthDelimited { body in
            body.write(MsyncPB.MessageBody.BodyType.chat, as: MsyncPB.MessageBody.BodyType.self, field: 1)
            body.write(from, as: MsyncPB.JID.self, field: 2)
            body.write(to, as: MsyncPB.JID.self, field: 3)
            body.writeTag(field: 4, wireType: .lengthDelimited)
            body.writeLengthDelimited { content in content.write(text, as: ProtobufString.self, field: 2) }
        }
    }
}

extension MsyncPB.CommSyncUL {
    /// A send: `CommSyncUL{meta}`.
    public static func send(_ meta: MsyncPB.Meta) -> Self {
        var upload = Self()
        upload.meta = meta
        return upload
    }

    /// A pull of `queue`, confirming the page of `key` when given: `CommSyncUL{queue, key}`.
    public static func pull(_ queue: MsyncPB.JID, key: UInt64? = nil) -> Self {
        var upload = Self()
        upload.queue = queue
        upload.key = key
        return upload
    }
}
