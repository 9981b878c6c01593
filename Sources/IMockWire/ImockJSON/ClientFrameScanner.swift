import IMockCore

/// The common client frames read in one pass over their bytes, with no JSON tree, no hashed
/// key and no string but the ones the frame yields: what ``ClientFrameParser/parse(_:)`` tries
/// first, since a frame is read for every message.
///
/// It answers only a frame it fully understands: one object of distinct members among `op`,
/// `id`, `to`, `text`, `messageId`, `token` (each a string without escapes) and
/// `unbindDeviceToken` (`true` or `false`), with an `op` other than `login` and every field
/// acceptable. Anything else (a login, an unknown, repeated or escaped member, another type, any
/// refusal) is nil, left to the general parser, so every error still comes from one place; a
/// test holds the answers equal to the general parser's.
enum ClientFrameScanner {
    /// The frame `text` is, or nil when the general parser must decide.
    static func frame(_ text: String) -> ClientFrame? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> ClientFrame? in
            guard let base = bytes.baseAddress else { return nil }
            var scanner = Scanner(base: base, count: bytes.count)
            return scanner.frame()
        } ?? nil
    }
}

/// The ops read here: every one but `login`, whose nested `device` the general parser reads.
private enum Op {
    case ping, renewToken, logout, devices, send, ack
}

/// Where a string's bytes are in the frame, between its quotes.
private typealias Span = Range<Int>

/// The members of a frame object.
private struct Members {
    var op: Op?
    var id: Span?
    var to: Span?
    var text: Span?
    var messageId: Span?
    var token: Span?
    var unbindDeviceToken: Bool?

    /// The frame, by ``ClientFrameParser``'s rules; nil where they refuse it.
    func frame(in base: UnsafePointer<UInt8>) -> ClientFrame? {
        func string(_ span: Span?) -> String? {
            span.map { String(decoding: UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count), as: UTF8.self) }
        }
        func requestID() -> String? {
            guard let id, ClientFrameParser.isAcceptable(idBytes: id.count) else { return nil }
            return string(id)
        }
        switch op {
        case nil: return nil
        case .ping:
            guard id != nil else { return .ping(id: nil) }
            return requestID().map { .ping(id: $0) }
        case .renewToken:
            guard let id = requestID(), let token = string(token) else { return nil }
            return .renewToken(id: id, token: token)
        case .logout:
            guard let id = requestID() else { return nil }
            return .logout(id: id, unbindDeviceToken: unbindDeviceToken ?? false)
        case .devices:
            return requestID().map { .devices(id: $0) }
        case .send:
            guard text?.isEmpty == false, let id = requestID(), let to = string(to), let text = string(text)
            else { return nil }
            return .send(id: id, to: to, text: text)
        case .ack:
            guard let id = requestID(), let messageId = string(messageId) else { return nil }
            return .ack(id: id, messageId: messageId)
        }
    }
}

/// Reads one flat object strictly (RFC 8259 whitespace, nothing after it), giving up at the
/// first thing it does not know.
private struct Scanner {
    let base: UnsafePointer<UInt8>
    let count: Int
    var index = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    /// The frame the text is, when it is one of the flat frames read here.
    mutating func frame() -> ClientFrame? {
        guard let members = members() else { return nil }
        return members.frame(in: base)
    }

    /// The object's members, when it is flat and all of them are known.
    @inline(__always)
    private mutating func members() -> Members? {
        var members = Members()
        skipWhitespace()
        guard next(is: "{") else { return nil }
        while true {
            skipWhitespace()
            guard let key = plainString() else { return nil }
            skipWhitespace()
            guard next(is: ":") else { return nil }
            skipWhitespace()
            guard read(key, into: &members) else { return nil }
            skipWhitespace()
            if next(is: ",") { continue }
            guard next(is: "}") else { return nil }
            skipWhitespace()
            return index == count ? members : nil
        }
    }

    /// Reads the value of member `key`; false when it is not one of a frame's members, is
    /// repeated, or its value is of another kind.
    @inline(__always)
    private mutating func read(_ key: Span, into members: inout Members) -> Bool {
        func store(_ slot: inout Span?) -> Bool {
            guard slot == nil, let value = plainString() else { return false }
            slot = value
            return true
        }
        switch key.count {
        case 2 where matches(key, "op"):
            guard members.op == nil, let value = plainString() else { return false }
            members.op = op(named: value)
            return members.op != nil
        case 2 where matches(key, "id"): return store(&members.id)
        case 2 where matches(key, "to"): return store(&members.to)
        case 4 where matches(key, "text"): return store(&members.text)
        case 5 where matches(key, "token"): return store(&members.token)
        case 9 where matches(key, "messageId"): return store(&members.messageId)
        case 17 where matches(key, "unbindDeviceToken"):
            guard members.unbindDeviceToken == nil else { return false }
            members.unbindDeviceToken = literal("true") ? true : literal("false") ? false : nil
            return members.unbindDeviceToken != nil
        default: return false
        }
    }

    private func op(named name: Span) -> Op? {
        switch name.count {
        case 3 where matches(name, "ack"): .ack
        case 4 where matches(name, "send"): .send
        case 4 where matches(name, "ping"): .ping
        case 6 where matches(name, "logout"): .logout
        case 7 where matches(name, "devices"): .devices
        case 10 where matches(name, "renewToken"): .renewToken
        default: nil
        }
    }

    /// The bytes between the quotes of a string with no escape and no control character
    /// (the text is valid UTF-8 already, so any other byte stands for itself).
    private mutating func plainString() -> Span? {
        guard next(is: "\"") else { return nil }
        let start = index
        // Eight bytes at a time up to the first quote, backslash or control character.
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let special = Self.specialBytes(word)
            guard special == 0 else {
                index += special.trailingZeroBitCount / 8
                break
            }
            index += 8
        }
        while index < count {
            switch base[index] {
            case UInt8(ascii: "\""):
                index += 1
                return start..<(index - 1)
            case UInt8(ascii: "\\"), 0x00..<0x20: return nil
            default: index += 1
            }
        }
        return nil
    }

    /// The high bit of each byte of `word` that is `"`, `\` or below 0x20, and maybe of bytes
    /// after such a byte (the "has a zero byte" bit trick: borrows run upwards), so the lowest
    /// one set is exactly the first of them.
    @inline(__always)
    private static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | control) & (ones &* 0x80)
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let end = index + word.utf8CodeUnitCount
        guard end <= count, matches(index..<end, word) else { return false }
        index = end
        return true
    }

    @inline(__always)
    private func matches(_ span: Span, _ word: StaticString) -> Bool {
        guard span.count == word.utf8CodeUnitCount else { return false }
        let letters = word.utf8Start
        for offset in 0..<span.count where base[span.lowerBound + offset] != letters[offset] { return false }
        return true
    }

    private mutating func next(is character: Unicode.Scalar) -> Bool {
        guard index < count, base[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < count, base[index] <= 0x20 {
            switch base[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}
