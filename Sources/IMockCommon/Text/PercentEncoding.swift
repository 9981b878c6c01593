/// `%XX` escapes (RFC 3986 § 2.1): the one encoder of URL path segments, query values and
/// names made safe for the file system.
public enum PercentEncoding {
    /// RFC 3986's unreserved characters: `A-Z a-z 0-9 - _ . ~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "~")
    }

    /// ASCII letters and digits.
    public static func isAlphanumeric(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            false
        }
    }

    /// `text` with every UTF-8 byte that `keeps` refuses written as `%XX` (upper-case hex).
    public static func encode(_ text: some StringProtocol, keeping keeps: (UInt8) -> Bool = isUnreserved) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if keeps(byte) {
                encoded.append(Character(Unicode.Scalar(byte)))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}
