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
    ///
    /// Works on the string's contiguous UTF-8 bytes: appending a `Character` per byte through the
    /// generic `StringProtocol` view cost about 1,500 instructions a byte, 178,000 per OpenIM
    /// login target on the load side of `bench login-storm` (callgrind).
    public static func encode(_ text: some StringProtocol, keeping keeps: (UInt8) -> Bool = isUnreserved) -> String {
        let original = String(text)
        var string = original
        return string.withUTF8 { bytes in
            guard let first = bytes.firstIndex(where: { !keeps($0) }) else { return original }
            var encoded: [UInt8] = []
            encoded.reserveCapacity(bytes.count + bytes.count / 2)
            encoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<first]))
            for byte in bytes[first...] {
                if keeps(byte) {
                    encoded.append(byte)
                } else {
                    encoded.append(UInt8(ascii: "%"))
                    encoded.append(upperHexDigits[Int(byte >> 4)])
                    encoded.append(upperHexDigits[Int(byte & 0x0F)])
                }
            }
            return String(decoding: encoded, as: UTF8.self)
        }
    }

    private static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
