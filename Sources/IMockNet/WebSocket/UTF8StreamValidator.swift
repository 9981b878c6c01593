/// Validates UTF-8 incrementally, chunk by chunk, so a text message can be rejected at the
/// first bad fragment and a code point may be split across fragment boundaries.
///
/// Follows the well-formed byte sequences of Unicode Table 3-7: overlong forms, surrogates
/// (U+D800–U+DFFF) and code points above U+10FFFF are rejected at their first impossible byte.
struct UTF8StreamValidator: Sendable {
    /// Continuation bytes still expected for the current code point.
    private var pending = 0
    /// The allowed range of the next continuation byte (narrower than 80–BF right after
    /// E0, ED, F0 and F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// Whether the bytes so far end on a code point boundary.
    var isAtBoundary: Bool { pending == 0 }

    /// Checks the next chunk; returns false as soon as the stream can no longer be valid UTF-8.
    /// After a false result the validator must not be used again.
    mutating func validate(_ bytes: some Collection<UInt8>) -> Bool {
        for byte in bytes {
            if pending == 0 {
                if byte < 0x80 { continue }
                switch byte {
                case 0xC2...0xDF: pending = 1; lower = 0x80; upper = 0xBF
                case 0xE0: pending = 2; lower = 0xA0; upper = 0xBF
                case 0xE1...0xEC, 0xEE...0xEF: pending = 2; lower = 0x80; upper = 0xBF
                case 0xED: pending = 2; lower = 0x80; upper = 0x9F
                case 0xF0: pending = 3; lower = 0x90; upper = 0xBF
                case 0xF1...0xF3: pending = 3; lower = 0x80; upper = 0xBF
                case 0xF4: pending = 3; lower = 0x80; upper = 0x8F
                default: return false
                }
            } else {
                guard byte >= lower && byte <= upper else { return false }
                pending -= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        return true
    }

    /// Whether `bytes` on their own are complete, valid UTF-8.
    static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        var validator = UTF8StreamValidator()
        return validator.validate(bytes) && validator.isAtBoundary
    }
}
