/// Standard base64 (RFC 4648 §4, `+/` with `=` padding), strict: built on ``Base64URL`` so
/// that every byte string has exactly one accepted encoding.
enum Base64Standard {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Array(Base64URL.encode(bytes).utf8)
        for index in text.indices {
            if text[index] == UInt8(ascii: "-") { text[index] = UInt8(ascii: "+") }
            if text[index] == UInt8(ascii: "_") { text[index] = UInt8(ascii: "/") }
        }
        while text.count % 4 != 0 { text.append(UInt8(ascii: "=")) }
        return String(decoding: text, as: UTF8.self)
    }

    /// nil for a wrong length, misplaced or missing padding, characters outside the alphabet
    /// (including the base64url ones `-` and `_`) or non-zero unused bits.
    static func decode(_ text: String) -> [UInt8]? {
        var input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < 2, input.last == UInt8(ascii: "=") {
            input.removeLast()
            padding += 1
        }
        for index in input.indices {
            switch input[index] {
            case UInt8(ascii: "+"): input[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): input[index] = UInt8(ascii: "_")
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "="): return nil
            default: break
            }
        }
        return Base64URL.decode(String(decoding: input, as: UTF8.self))
    }
}
