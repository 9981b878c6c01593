import IMockCommon

/// JSON strings as SockJS servers write them: RFC 8259 escaping (``JSONStringEscaping``) plus
/// `\uXXXX` for the characters browsers mangle on some transports and for everything outside
/// the Basic Multilingual Plane (as a UTF-16 surrogate pair), as sockjs-node's `quote` does.
///
/// The set is the protocol's `escapable_by_server` (sockjs-protocol 0.3.3): U+0000–U+001F,
/// U+200C–U+200F, U+2028–U+202F, U+2060–U+206F, U+FFF0–U+FFFF, and the surrogates.
enum SockJSStringEscaping {
    private static let hexDigits = Array("0123456789abcdef".unicodeScalars)

    /// `string` as a quoted JSON string with the SockJS escapes.
    static func quoted(_ string: String) -> String {
        let json = JSONStringEscaping.quoted(string)  // quotes, backslashes and controls escaped
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                out.append(contentsOf: "\\u".unicodeScalars)
                for shift in [12, 8, 4, 0] { out.append(hexDigits[Int(unit >> UInt16(shift) & 0xF)]) }
            }
        }
        return String(out)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C...0x200F, 0x2028...0x202F, 0x2060...0x206F, 0xFFF0...0xFFFF, 0x10000...: true
        default: false
        }
    }
}
