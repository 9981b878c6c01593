/// Base64 (RFC 4648) for byte arrays: the standard alphabet with `=` padding (``Base64``) and
/// the URL-safe alphabet without padding (``Base64URL``), one strict codec behind both.
///
/// Decoding is strict so that every byte string has exactly one accepted text: characters of
/// the other alphabet, white space, misplaced padding, an impossible length and non-zero unused
/// bits are all refused (nil).
public enum Base64 {
    /// Which of the two RFC 4648 encodings.
    public enum Variant: Sendable {
        /// §4: `+/`, padded with `=` to a multiple of 4.
        case standard
        /// §5: `-_`, no padding.
        case url

        fileprivate var alphabet: [UInt8] { self == .standard ? Base64.standardAlphabet : Base64.urlAlphabet }
        fileprivate var values: [UInt8] { self == .standard ? Base64.standardValues : Base64.urlValues }
    }

    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardValues = valueTable(standardAlphabet)
    private static let urlValues = valueTable(urlAlphabet)

    private static func valueTable(_ alphabet: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }

    /// The padded standard base64 text of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String { encode(Array(bytes), variant: .standard) }

    /// The padded standard base64 text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String { encode(bytes, variant: .standard) }

    /// The bytes of padded standard base64 `text`; nil unless it is exactly that.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? { decode(text, variant: .standard) }

    /// The bytes of padded standard base64 `text`; nil unless it is exactly that.
    public static func decode(_ text: String) -> [UInt8]? { decode(text, variant: .standard) }

    /// `bytes` in `variant`.
    public static func encode(_ bytes: some Collection<UInt8>, variant: Variant) -> String {
        encode(Array(bytes), variant: variant)
    }

    /// `bytes` in `variant` (the concrete form callers with an array get: no generic code).
    public static func encode(_ input: [UInt8], variant: Variant) -> String {
        let alphabet = variant.alphabet
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            output.append(alphabet[Int(group >> 6 & 0x3F)])
            output.append(alphabet[Int(group & 0x3F)])
            index += 3
        }
        let remaining = input.count - index
        if remaining > 0 {
            let second = remaining == 2 ? UInt32(input[index + 1]) : 0
            let group = UInt32(input[index]) << 16 | second << 8
            let characters = remaining + 1
            for shift: UInt32 in [18, 12, 6].prefix(characters) { output.append(alphabet[Int(group >> shift & 0x3F)]) }
            if variant == .standard {
                output.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 4 - characters))
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes in `variant`, or nil (see the type's strictness rules).
    public static func decode(_ text: some StringProtocol, variant: Variant) -> [UInt8]? {
        decode(utf8: ArraySlice(text.utf8), variant: variant)
    }

    /// The bytes `text` encodes in `variant` (the concrete form callers with a `String` get).
    public static func decode(_ text: String, variant: Variant) -> [UInt8]? {
        decode(utf8: ArraySlice(text.utf8), variant: variant)
    }

    /// The bytes the base64 characters `input` encode in `variant`, or nil.
    public static func decode(utf8 input: ArraySlice<UInt8>, variant: Variant) -> [UInt8]? {
        var input = input
        if variant == .standard {
            guard input.count % 4 == 0 else { return nil }
            var padding = 0
            while padding < 2, input.last == UInt8(ascii: "=") {
                input.removeLast()
                padding += 1
            }
        }
        guard input.count % 4 != 1 else { return nil }
        let values = variant.values
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits: UInt32 = 0
        for byte in input {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = (accumulator << 6 | UInt32(value)) & 0xFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> bits))
            }
        }
        guard accumulator & ((1 << bits) - 1) == 0 else { return nil }
        return output
    }
}

/// Base64url (RFC 4648 §5) without padding: tokens, cursors, generated credentials.
public enum Base64URL {
    /// Encodes without `=` padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String { Base64.encode(Array(bytes), variant: .url) }

    /// Encodes without `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String { Base64.encode(bytes, variant: .url) }

    /// Decodes unpadded base64url strictly (nil otherwise).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? { Base64.decode(text, variant: .url) }

    /// Decodes unpadded base64url strictly (nil otherwise).
    public static func decode(_ text: String) -> [UInt8]? { Base64.decode(text, variant: .url) }

    /// Decodes the unpadded base64url characters `utf8` strictly (nil otherwise).
    public static func decode(utf8: ArraySlice<UInt8>) -> [UInt8]? { Base64.decode(utf8: utf8, variant: .url) }
}
