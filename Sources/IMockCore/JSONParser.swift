import IMockCommon

/// Why bytes are not valid JSON; `offset` is the byte index where parsing stopped.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: String, Sendable, Equatable {
        case unexpectedEnd = "unexpected end of input"
        case unexpectedCharacter = "unexpected character"
        case invalidNumber = "invalid number"
        case invalidEscape = "invalid escape"
        case invalidUTF8 = "invalid UTF-8"
        case controlCharacterInString = "control character in string"
        case trailingData = "data after the JSON value"
        case tooDeep = "nesting too deep"
        case duplicateKey = "duplicate key"
    }

    /// What went wrong.
    public var reason: Reason
    /// The byte offset where parsing stopped.
    public var offset: Int
    /// For ``Reason/duplicateKey``: the dotted JSON path of the repeated member
    /// (`apps[1].users`); empty otherwise.
    public var path: String = ""

    /// `duplicate key apps[1].users at byte 65`, `unexpected character at byte 3`.
    public var description: String {
        path.isEmpty ? "\(reason.rawValue) at byte \(offset)" : "\(reason.rawValue) \(path) at byte \(offset)"
    }

    /// The same error found inside `component` (a member name or `[index]`) of its parent.
    func inside(_ component: String) -> JSONParseError {
        guard reason == .duplicateKey else { return self }
        var copy = self
        copy.path = path.hasPrefix("[") ? component + path : component + "." + path
        return copy
    }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects ``parse(_:)`` accepts.
    public static let maximumDepth = 64

    /// Parses one JSON text (RFC 8259) strictly: no comments, no trailing commas, nothing
    /// after the value except whitespace, no key twice in one object (RFC 8259 leaves the
    /// meaning of a repeated key open, and parsers disagree on which value wins). Integers that
    /// fit `Int64` become ``int(_:)``, every other number ``double(_:)``.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error(.trailingData) }
        return value
    }

    /// Parses the UTF-8 bytes of `text`.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ reason: JSONParseError.Reason) -> JSONParseError {
        JSONParseError(reason: reason, offset: index)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error(.unexpectedCharacter)
        }
    }

    mutating func expectLiteral(_ literal: String) throws(JSONParseError) {
        for expected in literal.utf8 {
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            guard bytes[index] == expected else { throw error(.unexpectedCharacter) }
            index += 1
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw error(.tooDeep) }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var seenKeys: Set<String> = []  // filled only for objects too large for a linear scan
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            guard bytes[index] == UInt8(ascii: "\"") else { throw error(.unexpectedCharacter) }
            let keyOffset = index
            let key = try parseString()
            if JSONParser.isRepeated(key, in: members, seen: &seenKeys) {
                throw JSONParseError(reason: .duplicateKey, offset: keyOffset, path: key)
            }
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            guard bytes[index] == UInt8(ascii: ":") else { throw error(.unexpectedCharacter) }
            index += 1
            skipWhitespace()
            do {
                members.append((key: key, value: try parseValue(depth: depth)))
            } catch {
                throw error.inside(key)
            }
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error(.unexpectedCharacter)
            }
        }
    }

    /// Whether `key` is already a member; small objects are scanned, larger ones indexed.
    static func isRepeated(
        _ key: String, in members: [(key: String, value: JSONValue)], seen: inout Set<String>
    ) -> Bool {
        let linearLimit = 16
        if members.count < linearLimit { return members.contains { $0.key == key } }
        if seen.isEmpty { seen = Set(members.map(\.key)) }
        return !seen.insert(key).inserted
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw error(.tooDeep) }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            do {
                elements.append(try parseValue(depth: depth))
            } catch {
                throw error.inside("[\(elements.count)]")
            }
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error(.unexpectedCharacter)
            }
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        } else {
            throw error(.invalidNumber)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(.invalidNumber) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(.invalidNumber) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if isInteger, let value = Self.integer(bytes[start..<index]) { return .int(value) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error(.invalidNumber) }
        return .double(value)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The value of an optional minus and decimal digits, nil when it does not fit `Int64`.
    static func integer(_ digits: ArraySlice<UInt8>) -> Int64? {
        var rest = digits[...]
        let negative = rest.first == UInt8(ascii: "-")
        if negative { rest = rest.dropFirst() }
        var value: Int64 = 0
        for digit in rest {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            // Accumulated negatively, so that Int64.min fits.
            let (sum, overflow2) = times10.subtractingReportingOverflow(Int64(digit - 0x30))
            guard !overflow, !overflow2 else { return nil }
            value = sum
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    mutating func parseString() throws(JSONParseError) -> String {
        // The common case: printable ASCII up to the closing quote, no escape.
        var end = index + 1
        while end < bytes.count, bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\\"),
            bytes[end] != UInt8(ascii: "\"")
        {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let string = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            index = end + 1
            return string
        }
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validUTF8: out) else { throw error(.invalidUTF8) }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &out)
            case 0x00..<0x20:
                throw error(.controlCharacterInString)
            default:
                out.append(byte)
                index += 1
            }
        }
    }

    mutating func parseEscape(into out: inout [UInt8]) throws(JSONParseError) {
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error(.invalidEscape) }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error(.invalidEscape) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error(.invalidEscape)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error(.invalidEscape) }
            out.append(contentsOf: String(Character(unicode)).utf8)
        default:
            index -= 1
            throw error(.invalidEscape)
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error(.unexpectedEnd) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
            default: throw error(.invalidEscape)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
