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
        let original = String(text)
        var encoded: [UInt8] = []
        guard append(original, to: &encoded, keeping: keeps) else { return original }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Appends `text` to `out` percent-encoded as ``encode(_:keeping:)`` does; false when no byte
    /// needed an escape.
    ///
    /// Works on the string's contiguous UTF-8 bytes: appending a `Character` per byte through the
    /// generic `StringProtocol` view cost about 1,500 instructions a byte, 178,000 per OpenIM
    /// login target on the load side of `bench login-storm` (callgrind).
    @discardableResult
    public static func append(_ text: String, to out: inout [UInt8], keeping keeps: (UInt8) -> Bool = isUnreserved) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.firstIndex(where: { !keeps($0) }) else {
                out.append(contentsOf: bytes)
                return false
            }
            out.reserveCapacity(out.count + bytes.count + bytes.count / 2)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<first]))
            for byte in bytes[first...] {
                if keeps(byte) {
                    out.append(byte)
                } else {
                    out.append(UInt8(ascii: "%"))
                    out.append(upperHexDigits[Int(byte >> 4)])
                    out.append(upperHexDigits[Int(byte & 0x0F)])
                }
            }
            return true
        }
    }

    private static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
