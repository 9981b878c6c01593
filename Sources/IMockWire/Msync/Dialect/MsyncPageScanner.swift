/// A page of chat texts from the server (`SYNC` `CommSyncDL{metas, nextKey, queue, isLast}`)
/// read in one pass over the envelope's bytes, for a client: the metas and their bodies are
/// read in place (no `MSync`, `Meta` or `MessageBody` values), through the same meta reader as
/// the server's ``MsyncSyncScanner``.
///
/// Only a page the general path (``MsyncEnvelope/decode(_:)``, `CommSyncDL`, then each meta's
/// payload) would read to the same messages is answered: every meta a chat text. A send's
/// answer (a `metaId`), a statistic or any other meta, anything malformed, answers nil and goes
/// to the general path, which answers as it always did.
public enum MsyncPageScanner {
    /// One chat text of a page.
    public struct Message: Equatable, Sendable {
        public let id: UInt64?
        /// `Meta.from.name`, else the body's.
        public let from: String?
        /// `Meta.to.name`, else the body's.
        public let to: String?
        public let text: String
        public let timestamp: UInt64?
    }

    /// A page: its messages, the key that confirms it, its queue's name, whether it is the last.
    public struct Page: Equatable, Sendable {
        public let messages: [Message]
        public let nextKey: UInt64?
        public let queue: String?
        public let isLast: Bool?
    }

    /// The page in `bytes` (one binary `MSync`), or nil when the general path must read it.
    public static func scan(_ bytes: [UInt8]) -> Page? {
        guard let (command, reader) = MsyncEnvelope.payloadInPlace(bytes), command == .sync else { return nil }
        return scan(payload: reader)
    }

    /// The page a `SYNC` envelope's payload holds (``MsyncEnvelope/payloadInPlace(_:)``'s
    /// reader), or nil when the general path must read it.
    public static func scan(payload reader: ProtobufReader) -> Page? {
        var payload = reader
        do throws(ProtobufError) {
            return try page(&payload)
        } catch {
            return nil
        }
    }

    /// `CommSyncDL` without a `metaId`, every meta a chat text.
    private static func page(_ reader: inout ProtobufReader) throws(ProtobufError) -> Page? {
        var messages: [Message] = []
        var metaId: UInt64?
        var nextKey: UInt64?
        var queue: MsyncPB.JID?
        var isLast: Bool?
        while let field = try reader.nextField() {
            switch field.number {
            case 1: _ = try reader.read(MsyncPB.Status.self)
            case 2: metaId = try reader.read(ProtobufUInt64.self)
            case 3: _ = try reader.read(ProtobufUInt64.self)
            case 4:
                guard field.wireType == .lengthDelimited else { return nil }
                var meta = try reader.inPlaceValue(nesting: true)
                guard let read = try MsyncSyncScanner.textMeta(&meta) else { return nil }
                messages.append(
                    Message(id: read.id, from: read.from ?? read.bodyFrom, to: read.to ?? read.bodyTo, text: read.text, timestamp: read.timestamp))
            case 5: nextKey = try reader.read(ProtobufUInt64.self)
            case 6: queue = try reader.read(MsyncPB.JID.self)
            case 7: isLast = try reader.read(ProtobufBool.self)
            case 8: _ = try reader.read(ProtobufUInt64.self)
            case 9: _ = try reader.read(ProtobufBool.self)
            default: break
            }
        }
        guard metaId == nil || metaId == 0 else { return nil }
        return Page(messages: messages, nextKey: nextKey, queue: queue?.name, isLast: isLast)
    }
}
