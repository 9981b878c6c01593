import FoundationEssentials

/// Deterministic JSON: sorted keys, no escaped slashes.
enum JSONCoding {
    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own plain structs cannot fail.
        return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }
}
