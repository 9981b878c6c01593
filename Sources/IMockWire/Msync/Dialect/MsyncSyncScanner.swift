/// The client `SYNC` frames of a message's path — a one-to-one text send
/// (`CommSyncUL{meta: Meta{ns: CHAT, payload: MessageBody{contents: [text]}}}`) and a pull of a
/// queue (`CommSyncUL{queue, key?}`) — read in one pass over the envelope's bytes: the payloads
/// are read in place (no `MSync`, `Meta` or `MessageBody` values, no copies of their bytes).
///
/// Only what the general path (``MsyncEnvelope/decode(_:)``, then the payloads' decoders) would
/// read to the same command is answered. Every other frame — another command, a field this
/// scanner does not read that the schema knows, a second meta or content, a statistic, a
/// receipt, anything malformed — answers nil and goes to the general path, which gives the
/// answer it always gave (its errors included). A field the schema does not know is skipped
/// exactly as the general decoders skip it.
enum MsyncSyncScanner {
    /// What a frame asks for.
    enum Upload: Equatable {
        /// `CommSyncUL{queue, key?}`: a pull of `queue`, confirming the page of `key`.
        case pull(MsyncPB.JID, key: UInt64?)
        /// A text for `recipient` (`Meta.to.name`, else the body's `to.name`, else empty) sent
        /// with the client's meta id.
        case send(metaId: UInt64, recipient: String, text: String)
    }

    /// The upload in `bytes` (one `MSync`), or nil when the general path must read it.
    static func scan(_ bytes: [UInt8]) -> Upload? {
        do throws(ProtobufError) {
            return try read(bytes)
        } catch {
            return nil
        }
    }

    private static func read(_ bytes: [UInt8]) throws(ProtobufError) -> Upload? {
        guard let (command, reader) = MsyncEnvelope.payloadInPlace(bytes), command == .sync else { return nil }
        var payload = reader
        return try upload(&payload)
    }

    /// `CommSyncUL`: a meta wins over a queue, as in ``MsyncDialect``.
    private static func upload(_ reader: inout ProtobufReader) throws(ProtobufError) -> Upload? {
        var meta: ProtobufReader?
        var key: UInt64?
        var queue: MsyncPB.JID?
        while let field = try reader.nextField() {
            switch field.number {
            case 1:
                guard meta == nil else { return nil }  // a second meta replaces the first
                meta = try reader.inPlaceValue(nesting: true)
            case 2: key = try reader.read(ProtobufUInt64.self)
            case 3: queue = try reader.read(MsyncPB.JID.self)
            case 4: _ = try reader.read(ProtobufBool.self)
            case 5: _ = try reader.read(ProtobufUInt64.self)
            default: break
            }
        }
        if var meta { return try send(&meta) }
        if let queue { return .pull(queue, key: key) }
        return nil
    }

    /// `Meta{ns: CHAT}` whose payload is a text message body.
    private static func send(_ reader: inout ProtobufReader) throws(ProtobufError) -> Upload? {
        guard let meta = try textMeta(&reader) else { return nil }
        return .send(metaId: meta.id ?? 0, recipient: meta.to ?? meta.bodyTo ?? "", text: meta.text)
    }

    /// What a chat text meta carries, its JIDs by name only.
    struct TextMeta: Equatable {
        var id: UInt64?
        /// `Meta.from.name` and `Meta.to.name` (nil when the JID or its name is absent).
        var from: String?
        var to: String?
        var timestamp: UInt64?
        /// The body's own `from.name` and `to.name`.
        var bodyFrom: String?
        var bodyTo: String?
        var text: String
    }

    /// `Meta{ns: CHAT, payload: MessageBody{type: NORMAL/CHAT, contents: [one text]}}`, read
    /// as the general decoders read it; nil for any other meta (the general path's).
    static func textMeta(_ reader: inout ProtobufReader) throws(ProtobufError) -> TextMeta? {
        var id: UInt64?
        var from: String??
        var to: String??
        var timestamp: UInt64?
        var ns: MsyncPB.Meta.NameSpace?
        var body: ProtobufReader?
        while let field = try reader.nextField() {
            switch field.number {
            case 1: id = try reader.read(ProtobufUInt64.self)
            case 2: from = try jidName(&reader)
            case 3: to = try jidName(&reader)
            case 4: timestamp = try reader.read(ProtobufUInt64.self)
            case 5: ns = try reader.read(MsyncPB.Meta.NameSpace.self)
            case 6: body = try reader.inPlaceValue()
            case 7: _ = try reader.read(MsyncPB.Meta.RouteType.self)
            case 8...10: return nil
            default: break
            }
        }
        guard ns == .chat, var body, let (bodyFrom, bodyTo, text) = try textBody(&body) else { return nil }
        return TextMeta(
            id: id, from: from ?? nil, to: to ?? nil, timestamp: timestamp, bodyFrom: bodyFrom, bodyTo: bodyTo, text: text)
    }

    /// `MessageBody{type: NORMAL/CHAT, contents: [one text]}`: the body's `from.name`,
    /// `to.name` and the text.
    private static func textBody(_ reader: inout ProtobufReader) throws(ProtobufError) -> (String?, String?, String)? {
        var type = MsyncPB.MessageBody.BodyType.normal
        var from: String??
        var to: String??
        var text: String?
        var contents = 0
        while let field = try reader.nextField() {
            switch field.number {
            case 1: type = try reader.read(MsyncPB.MessageBody.BodyType.self)
            case 2: from = try jidName(&reader)
            case 3: to = try jidName(&reader)
            case 4:
                contents += 1
                guard contents == 1, field.wireType == .lengthDelimited else { return nil }
                var content = try reader.inPlaceValue(nesting: true)
                guard let read = try textContent(&content) else { return nil }
                text = read
            case 5...9, 11, 12: return nil
            default: break
            }
        }
        guard type == .normal || type == .chat, let text else { return nil }
        return (from ?? nil, to ?? nil, text)
    }

    /// A `JID` field read as `read(MsyncPB.JID.self)` reads it — the same checks, the same
    /// errors' absence — but only its `name` made into a string.
    private static func jidName(_ reader: inout ProtobufReader) throws(ProtobufError) -> String? {
        var jid = try reader.inPlaceValue(nesting: true)
        var name: String?
        while let field = try jid.nextField() {
            switch field.number {
            case 2: name = try jid.read(ProtobufString.self)
            case 1, 3, 4: try jid.checkString()
            default: break
            }
        }
        return name
    }

    /// `Content{type: TEXT (or absent), text}`.
    private static func textContent(_ reader: inout ProtobufReader) throws(ProtobufError) -> String? {
        var type = MsyncPB.MessageBody.Content.ContentType.text
        var text: String?
        while let field = try reader.nextField() {
            switch field.number {
            case 1: type = try reader.read(MsyncPB.MessageBody.Content.ContentType.self)
            case 2: text = try reader.read(ProtobufString.self)
            case 3...25: return nil
            default: break
            }
        }
        return type == .text ? text : nil
    }
}
