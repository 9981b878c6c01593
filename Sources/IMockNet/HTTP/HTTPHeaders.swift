/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Order and duplicates are kept as received, so a response can repeat a field
/// (`Set-Cookie`) and a request can be inspected exactly as sent.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were added.
    public private(set) var fields: [(name: String, value: String)]

    public init() { fields = [] }

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// The comma-separated tokens of every `name` field, trimmed and lower-cased
    /// (`Connection: keep-alive, Upgrade` gives `["keep-alive", "upgrade"]`).
    public func tokens(for name: String) -> [String] {
        values(for: name).flatMap { $0.split(separator: ",") }
            .map { String($0).trimmingASCIIWhitespace().lowercasedASCII() }
            .filter { !$0.isEmpty }
    }

    /// Whether a `name` field lists `token` among its comma-separated tokens, compared
    /// case-insensitively after trimming (`tokens(for:).contains(token)` without building them).
    public func hasToken(_ token: String, in name: String) -> Bool {
        fields.contains { field in
            field.name.equalsIgnoringASCIICase(name) && Self.list(field.value, contains: token)
        }
    }

    private static func list(_ value: String, contains token: String) -> Bool {
        var value = value
        var token = token
        return value.withUTF8 { bytes in
            token.withUTF8 { wanted in
                var start = 0
                while start <= bytes.count {
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                    var first = start
                    var last = end
                    while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
                    while last > first, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
                    if last - first == wanted.count, !wanted.isEmpty,
                        (0..<wanted.count).allSatisfy({ lowerASCII(bytes[first + $0]) == lowerASCII(wanted[$0]) })
                    {
                        return true
                    }
                    start = end + 1
                }
                return false
            }
        }
    }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name: name, value: value))
    }

    /// Removes every field of `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// Compares ASCII letters case-insensitively without allocating (header lookups run for
    /// every request).
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var lhs = utf8.makeIterator()
        var rhs = other.utf8.makeIterator()
        while true {
            switch (lhs.next(), rhs.next()) {
            case (nil, nil): return true
            case (let a?, let b?):
                if a == b { continue }
                let lowerA = a >= 0x41 && a <= 0x5A ? a + 0x20 : a
                let lowerB = b >= 0x41 && b <= 0x5A ? b + 0x20 : b
                if lowerA != lowerB { return false }
            default: return false
            }
        }
    }

    /// Lower-cases ASCII letters only; header names and tokens are ASCII by RFC 9110.
    func lowercasedASCII() -> String {
        var bytes = Array(utf8)
        var changed = false
        for i in bytes.indices where bytes[i] >= 0x41 && bytes[i] <= 0x5A {
            bytes[i] += 0x20
            changed = true
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : self
    }

    /// Trims spaces and horizontal tabs (HTTP optional whitespace) from both ends.
    func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

/// `byte` with A–Z folded to a–z.
@inline(__always)
private func lowerASCII(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
