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
