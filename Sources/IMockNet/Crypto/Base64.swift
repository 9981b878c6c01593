/// Standard base64 (RFC 4648 §4, with `=` padding) for byte arrays.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The value of each ASCII byte in the alphabet, or 0xFF when it is not part of it.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// The padded base64 text of `bytes`.
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
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
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            output.append(remaining == 2 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes encoded by `text`, or nil unless it is padded base64 with a length that
    /// is a multiple of 4 and no characters outside the alphabet (no whitespace).
    /// Non-zero bits in the final character before padding are ignored.
    static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let isLast = index + 4 == input.count
            let padding = isLast ? input[(index + 2)...].reversed().prefix { $0 == UInt8(ascii: "=") }.count : 0
            var group: UInt32 = 0
            for offset in 0..<4 {
                let byte = input[index + offset]
                let value: UInt8
                if offset >= 4 - padding {
                    value = 0
                } else {
                    value = values[Int(byte)]
                    guard value != 0xFF else { return nil }
                }
                group = group << 6 | UInt32(value)
            }
            output.append(UInt8(truncatingIfNeeded: group >> 16))
            if padding < 2 { output.append(UInt8(truncatingIfNeeded: group >> 8)) }
            if padding < 1 { output.append(UInt8(truncatingIfNeeded: group)) }
            index += 4
        }
        return output
    }
}
