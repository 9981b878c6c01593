/// One file of the dashboard, embedded in the binary: its name under `/_imock/ui/`, its
/// `Content-Type`, its bytes and a strong `ETag` derived from them.
struct DashboardAsset: Sendable {
    let name: String
    let contentType: String
    let body: [UInt8]
    let etag: String

    init(name: String, contentType: String, text: String) {
        self.name = name
        self.contentType = contentType
        self.body = Array(text.utf8)
        self.etag = "\"" + Self.fnv1a64(body) + "\""
    }

    /// FNV-1a, 64 bits, as 16 hex digits: enough to tell two versions of a file apart.
    private static func fnv1a64(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
