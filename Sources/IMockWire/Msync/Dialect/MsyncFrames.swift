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
        writeText(id: id, text: text, timestamp: timestamp, to: &writer) { writer, field in
            writer.write(field == 2 ? from : to, as: MsyncPB.JID.self, field: field)
        }
    }

    /// ``writeText(id:from:to:text:timestamp:to:)`` with the sender (field 2) and the
    /// recipient (field 3), of the meta and of its body, written by `writeJID(writer, field)`.
    static func writeText(
        id: UInt64, text: String, timestamp: UInt64?, to writer: inout ProtobufWriter,
        writeJID: (inout ProtobufWriter, _ field: Int) -> Void
    ) {
        writer.write(id, as: ProtobufUInt64.self, field: 1)
        writeJID(&writer, 2)
        writeJID(&writer, 3)
        writer.write(timestamp, as: ProtobufUInt64.self, field: 4)
        writer.write(NameSpace.chat, as: NameSpace.self, field: 5)
        writer.writeTag(field: 6, wireType: .lengthDelimited)
        writer.writeLengthDelimited { body in
            body.write(MsyncPB.MessageBody.BodyType.chat, as: MsyncPB.MessageBody.BodyType.self, field: 1)
            writeJID(&body, 2)
            writeJID(&body, 3)
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
