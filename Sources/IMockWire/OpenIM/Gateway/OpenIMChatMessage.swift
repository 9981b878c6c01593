import IMockCommon
import IMockCore

/// How the engine's 1:1 text messages look in OpenIM's words (`sdkws.MsgData`; openimsdk
/// protocol `constant`): single chat (session type 1), sent by a user (msgFrom 100), text
/// (content type 101) whose content is the JSON `{"content": text}`.
///
/// A message's seq is the engine's message id: the seqs of a conversation increase with every
/// message, but are not contiguous (the engine numbers all messages in one series).
public enum OpenIMChatMessage {
    /// `SingleChatType`.
    public static let singleChat: Int32 = 1
    /// `UserMsgType`.
    public static let userMessage: Int32 = 100
    /// `Text`.
    public static let text: Int32 = 101
    /// `MsgStatusSendSuccess`.
    public static let sentStatus: Int32 = 2

    /// The conversation id of a single chat: `si_` and both user ids in ascending order.
    public static func conversationID(_ first: String, _ second: String) -> String {
        let (low, high) = first <= second ? (first, second) : (second, first)
        // Appended into one reserved string: sorting and joining an array of the two cost
        // ~2,000 instructions a push.
        var id = "si_"
        id.reserveCapacity(4 + low.utf8.count + high.utf8.count)
        id += low
        id += "_"
        id += high
        return id
    }

    /// The conversation of `message`.
    public static func conversationID(of message: ChatMessage) -> String {
        conversationID(message.from, message.to)
    }

    /// The seq of `message` (its engine id; 0 if that is not a number).
    public static func seq(of message: ChatMessage) -> Int64 { Int64(message.messageId) ?? 0 }

    /// `message` as `MsgData`. The engine keeps no client id, so `clientMsgID` is the server's.
    public static func msgData(_ message: ChatMessage) -> OpenIMPB.MsgData {
        var data = OpenIMPB.MsgData()
        data.sendID = message.from
        data.recvID = message.to
        data.clientMsgID = message.messageId
        data.serverMsgID = message.messageId
        data.sessionType = singleChat
        data.msgFrom = userMessage
        data.contentType = text
        data.content = content(message.text)
        data.seq = seq(of: message)
        data.sendTime = message.timestamp
        data.createTime = message.timestamp
        data.status = sentStatus
        return data
    }

    /// `{"content": text}` as compact JSON, written straight into bytes: the same bytes as
    /// encoding the ``JSONValue`` object, without building it (a push each message).
    static func content(_ text: String) -> [UInt8] {
        var content: [UInt8] = []
        content.reserveCapacity(text.utf8.count + 16)
        content.append(contentsOf: #"{"content":"#.utf8)
        JSONStringEscaping.write(text, into: &content)
        content.append(UInt8(ascii: "}"))
        return content
    }

    /// The text of a 1:1 text `MsgData`, or why it is not one imock serves.
    public static func text(of data: OpenIMPB.MsgData) -> Result<String, OpenIMError> {
        guard data.sessionType == singleChat else {
            return .failure(OpenIMError(.args, "imock serves single chats (sessionType 1) only"))
        }
        guard data.contentType == text else {
            return .failure(OpenIMError(.args, "imock serves text messages (contentType 101) only"))
        }
        guard !data.recvID.isEmpty else { return .failure(OpenIMError(.args, "recvID is empty")) }
        guard let text = text(ofContent: data.content) else {
            return .failure(OpenIMError(.args, "content must be the JSON {\"content\": text}"))
        }
        return .success(text)
    }

    /// The text of the content `{"content": text}`, nil if it is not such JSON. What
    /// ``content(_:)`` writes for a text without quotes, backslashes or control characters is
    /// read by hand; anything else is parsed (a `JSONValue` tree cost about 2,000 instructions
    /// a message on each side).
    static func text(ofContent content: [UInt8]) -> String? {
        if let text = plainText(ofContent: content) { return text }
        return (try? JSONValue.parse(content))?["content"]?.stringValue
    }

    /// What ``content(_:)`` writes before a plain text.
    static let contentPrefix = Array(#"{"content":""#.utf8)

    /// The text between `{"content":"` and `"}` when nothing in it needs unescaping and it is
    /// UTF-8; else nil.
    private static func plainText(ofContent content: [UInt8]) -> String? {
        content.withUnsafeBufferPointer { plainText(ofContent: $0) }
    }

    /// ``plainText(ofContent:)`` of content in memory (a send's, read in place).
    static func plainText(ofContent buffer: UnsafeBufferPointer<UInt8>) -> String? {
        let prefix = contentPrefix.count
        guard buffer.count >= prefix + 2, buffer[buffer.count - 2] == UInt8(ascii: "\""),
            buffer[buffer.count - 1] == UInt8(ascii: "}")
        else { return nil }
        for index in 0..<prefix where buffer[index] != contentPrefix[index] { return nil }
        let text = UnsafeBufferPointer(rebasing: buffer[prefix..<(buffer.count - 2)])
        guard isPlainJSONText(text) else { return nil }
        return String(validUTF8: text)
    }

    /// Whether `text` stands in a JSON string as it is: no control character, quote or
    /// backslash (what ``content(_:)`` would escape). Both the push's writer and the send's
    /// reader put such a text between `{"content":"` and `"}` by hand.
    static func isPlainJSONText(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
    }

    /// The engine's message from a pushed or pulled `MsgData` (the reference client's view).
    public static func chatMessage(_ data: OpenIMPB.MsgData) -> ChatMessage {
        let text = text(ofContent: data.content) ?? ""
        return ChatMessage(
            messageId: data.serverMsgID, from: data.sendID, to: data.recvID, text: text, timestamp: data.sendTime)
    }
}
