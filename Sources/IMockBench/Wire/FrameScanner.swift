/// Reads members of a compact JSON object without parsing it: `op` first, then a string or
/// integer member by name. Good enough for frames whose values hold no escaped quotes (what
/// the load generator sends and gets back); anything else reads as absent.
struct FrameScanner {
    private let bytes: [UInt8]

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The value of a leading `"op":"…"` member.
    var op: Substring {
        let prefix = Array(#"{"op":""#.utf8)
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return "" }
        guard let end = bytes[prefix.count...].firstIndex(of: UInt8(ascii: "\"")) else { return "" }
        return Substring(decoding: bytes[prefix.count..<end], as: UTF8.self)
    }

    /// The string value of the first member named `name`.
    func string(_ name: String) -> String? {
        guard let start = valueStart(name), start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
        guard let end = bytes[(start + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
    }

    /// The integer value of the first member named `name`.
    func integer(_ name: String) -> Int? {
        guard let start = valueStart(name) else { return nil }
        var end = start
        while end < bytes.count, bytes[end] == UInt8(ascii: "-") || (bytes[end] >= 0x30 && bytes[end] <= 0x39) { end += 1 }
        return Int(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    /// The index just after `"name":`.
    private func valueStart(_ name: String) -> Int? {
        let key = Array("\"\(name)\":".utf8)
        guard bytes.count >= key.count else { return nil }
        var index = 0
        while index + key.count <= bytes.count {
            if bytes[index] == key[0], bytes[index..<(index + key.count)].elementsEqual(key) { return index + key.count }
            index += 1
        }
        return nil
    }
}
