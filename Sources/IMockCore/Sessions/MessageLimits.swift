/// The limits on what a device sends, checked by the engine for every dialect
/// (docs/PROTOCOL.md § Limits): a dialect refuses in its own words what the engine refuses.
public enum MessageLimits {
    /// Longest text message, in UTF-16 units — "characters" as the vendor documents count
    /// them — so at most 15,000 UTF-8 bytes.
    public static let maximumTextLength = 5000
    /// Longest device `name`, `uuid` or `resource`, in UTF-8 bytes.
    public static let maximumDeviceFieldLength = 128

    /// Why `text` cannot be sent; nil when it can. Linear in at most the first
    /// ``maximumTextLength`` units plus one.
    public static func check(text: String) -> SessionError? {
        // A UTF-8 byte per UTF-16 unit at least, and a native string knows its byte count.
        if text.utf8.count <= maximumTextLength { return nil }
        var units = 0
        for _ in text.utf16 {
            units += 1
            if units > maximumTextLength { return .textTooLong(maximumUTF16Units: maximumTextLength) }
        }
        return nil
    }
}
