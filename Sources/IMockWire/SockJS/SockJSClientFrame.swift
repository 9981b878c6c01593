import IMockCore

/// What a SockJS client sends over the WebSocket transport: text frames each holding a JSON
/// array of strings (`["<base64 MSync>", …]`), or, as sockjs-node also accepts, one bare JSON
/// string. Empty frames are ignored, as the protocol requires.
public enum SockJSClientFrame {
    /// The longest client frame read (bytes).
    public static let maximumFrameLength = 1 << 20
    /// The most messages one client frame may carry.
    public static let maximumMessageCount = 1024

    /// The messages in one client text frame, in order; none for an empty frame.
    /// - Throws: ``SockJSError/brokenFraming(_:)`` for anything that is not a JSON string or an
    ///   array of strings (the server then sends ``SockJSError/closeFrame`` and closes), or a
    ///   limit error.
    public static func messages(in text: some Collection<UInt8>) throws(SockJSError) -> [String] {
        guard text.count <= maximumFrameLength else {
            throw .frameTooLarge(length: text.count, limit: maximumFrameLength)
        }
        guard !text.isEmpty else { return [] }
        let value: JSONValue
        do {
            value = try JSONValue.parse(Array(text))
        } catch {
            throw .brokenFraming("\(error.reason.rawValue) at byte \(error.offset)")
        }
        if let string = value.stringValue { return [string] }
        guard let elements = value.arrayValue else { throw .brokenFraming("neither a string nor an array") }
        guard elements.count <= maximumMessageCount else {
            throw .tooManyMessages(count: elements.count, limit: maximumMessageCount)
        }
        guard let strings = value.sockJSStrings else { throw .brokenFraming("a message that is not a string") }
        return strings
    }

    /// The client frame carrying `messages` (what a SockJS client sends; for tests and clients).
    public static func text(_ messages: [String]) -> String {
        "[" + messages.map(SockJSStringEscaping.quoted).joined(separator: ",") + "]"
    }
}

extension JSONValue {
    /// The elements of a JSON array of strings; nil for anything else.
    var sockJSStrings: [String]? {
        guard let elements = arrayValue else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard let string = element.stringValue else { return nil }
            strings.append(string)
        }
        return strings
    }
}
