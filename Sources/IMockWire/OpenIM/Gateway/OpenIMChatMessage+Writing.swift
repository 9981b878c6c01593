import IMockCore

/// The protobuf of a message written field by field, for the two frames of every message: the
/// server's 2001 push and the reference client's 1003 send. The same bytes as encoding the
/// ``OpenIMPB/MsgData`` that ``OpenIMChatMessage/msgData(_:)`` makes (in a ``OpenIMPB/PushMessages``
/// for the push), without building that value, its map and its arrays: through the generic
/// field writers, the push's protobuf cost about 9,000 instructions, now 3,500 (callgrind of `bench
/// messages --dialect openim`, docs/BENCHMARKS.md).
extension OpenIMChatMessage {
    /// The `Data` of the 2001 push of `message`: `PushMessages{msgs: {conversation: PullMsgs{Msgs:
    /// [MsgData]}}}`, as ``msgData(_:)`` makes the message.
    public static func pushMessagesBytes(_ message: ChatMessage) -> [UInt8] {
        var writer = ProtobufWriter(capacity: 128 + message.text.utf8.count)
        writer.writeTag(field: 1, wireType: .lengthDelimited)  // msgs: one map entry
        writer.writeLengthDelimited { entry in
            // A map entry writes its key and value whatever they are.
            entry.writeTag(field: 1, wireType: .lengthDelimited)
            writeConversationID(message.from, message.to, to: &entry)
            entry.writeTag(field: 2, wireType: .lengthDelimited)
            entry.writeLengthDelimited { pull in  // PullMsgs: isEnd false, endSeq 0
                pull.writeTag(field: 1, wireType: .lengthDelimited)
                pull.writeLengthDelimited { data in
                    writeTextMsgData(
                        message, clientMsgID: message.messageId, senderPlatformID: 0, seq: seq(of: message),
                        time: message.timestamp, status: sentStatus, to: &data)
                }
            }
        }
        return writer.bytes
    }

    /// ``conversationID(_:_:)`` as a length-delimited value, put together on the stack rather
    /// than in a string of its own.
    private static func writeConversationID(_ first: String, _ second: String, to writer: inout ProtobufWriter) {
        var (low, high) = first <= second ? (first, second) : (second, first)
        let count = 4 + low.utf8.count + high.utf8.count
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            buffer.initialize(repeating: UInt8(ascii: "_"))
            buffer[0] = UInt8(ascii: "s")
            buffer[1] = UInt8(ascii: "i")
            var end = 3
            func append(_ bytes: UnsafeBufferPointer<UInt8>) {
                _ = UnsafeMutableBufferPointer(rebasing: buffer[end...]).update(fromContentsOf: bytes)
                end += bytes.count
            }
            low.withUTF8 { append($0) }
            end += 1  // "_"
            high.withUTF8 { append($0) }
            writer.writeLengthDelimited(UnsafeBufferPointer(rebasing: buffer[..<end]))
        }
    }

    /// The `MsgData` the reference client sends (1003) for `message`: ``msgData(_:)``'s fields
    /// with the client's id, its platform, no seq and no time, status 1 (sending).
    public static func sendBytes(_ message: ChatMessage, senderPlatformID: Int32) -> [UInt8] {
        var writer = ProtobufWriter(capacity: 96 + message.text.utf8.count)
        writeTextMsgData(
            message, clientMsgID: message.messageId, senderPlatformID: senderPlatformID, seq: 0, time: 0,
            status: sendingStatus, to: &writer)
        return writer.bytes
    }

    /// `MsgStatusSending`: a message the client is sending.
    public static let sendingStatus: Int32 = 1

    /// The fields of a 1:1 text `MsgData` in field order, each left out when it is its default,
    /// as ``OpenIMPB/MsgData/encode(to:)`` writes them: sender, recipient, the client's id, the
    /// server's (the message id), the sender's platform, single chat, user message, text, the
    /// content `{"content": text}`, seq, send and create time, status.
    static func writeTextMsgData(
        _ message: ChatMessage, clientMsgID: String, senderPlatformID: Int32, seq: Int64, time: Int64, status: Int32,
        to writer: inout ProtobufWriter
    ) {
        writeString(message.from, field: 1, to: &writer)
        writeString(message.to, field: 2, to: &writer)
        writeString(clientMsgID, field: 4, to: &writer)
        writeString(message.messageId, field: 5, to: &writer)
        writeVarint(Int64(senderPlatformID), field: 6, to: &writer)
        writeVarint(Int64(singleChat), field: 9, to: &writer)
        writeVarint(Int64(userMessage), field: 10, to: &writer)
        writeVarint(Int64(text), field: 11, to: &writer)
        writer.writeTag(field: 12, wireType: .lengthDelimited)  // never empty
        writeContent(message.text, to: &writer)
        writeVarint(seq, field: 14, to: &writer)
        writeVarint(time, field: 15, to: &writer)
        writeVarint(time, field: 16, to: &writer)
        writeVarint(Int64(status), field: 17, to: &writer)
    }

    /// ``content(_:)`` as a length-delimited value: put together on the stack when the text
    /// needs no escaping (an array of its own per message otherwise).
    private static func writeContent(_ text: String, to writer: inout ProtobufWriter) {
        var text = text
        let written = text.withUTF8 { text -> Bool in
            guard isPlainJSONText(text) else { return false }
            let prefix = contentPrefix
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefix.count + text.count + 2) { buffer in
                var end = buffer.initialize(fromContentsOf: prefix)
                end = UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(fromContentsOf: text) + end
                buffer[end] = UInt8(ascii: "\"")
                buffer[end + 1] = UInt8(ascii: "}")
                writer.writeLengthDelimited(UnsafeBufferPointer(buffer))
            }
            return true
        }
        if !written { writer.writeLengthDelimited(content(text)) }
    }

    /// A proto3 string field: nothing when empty.
    private static func writeString(_ value: String, field: Int, to writer: inout ProtobufWriter) {
        guard !value.isEmpty else { return }
        writer.writeTag(field: field, wireType: .lengthDelimited)
        writer.writeLengthDelimited(value)
    }

    /// A proto3 `int32` or `int64` field: nothing when 0; a negative value as its 64-bit two's
    /// complement (ten bytes), as ``ProtobufInt32`` and ``ProtobufInt64`` write it.
    private static func writeVarint(_ value: Int64, field: Int, to writer: inout ProtobufWriter) {
        guard value != 0 else { return }
        writer.writeTag(field: field, wireType: .varint)
        writer.writeVarint(UInt64(bitPattern: value))
    }
}
