/// Validation of user fields (reference easemob.md §1.4).
public enum UserFields {
    /// Longest username in bytes.
    public static let maximumUsernameLength = 64
    /// Longest password in characters (UTF-16 units, which also bounds its bytes).
    public static let maximumPasswordLength = 64
    /// Longest nickname in characters (UTF-16 units, which also bounds its bytes).
    public static let maximumNicknameLength = 100

    /// The canonical username: ASCII upper case folded to lower case, then 1–64 bytes of
    /// `[a-z0-9_.-]`. Errors name the input as given.
    public static func normalizeUsername(_ raw: String) throws(DirectoryError) -> String {
        // Nearly every name comes canonical already: kept as it is, nothing copied.
        if raw.utf8.count <= maximumUsernameLength, !raw.isEmpty, raw.utf8.allSatisfy(isCanonicalUsernameByte) {
            return raw
        }
        var bytes = Array(raw.utf8)
        guard bytes.count <= maximumUsernameLength else { throw .usernameTooLong }
        guard !bytes.isEmpty else { throw .illegalUsername(raw) }
        for index in bytes.indices {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                bytes[index] = byte + 0x20
            } else if !isCanonicalUsernameByte(byte) {
                throw .illegalUsername(raw)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isCanonicalUsernameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// Checks a password: 1–64 characters.
    public static func validatePassword(_ password: String) throws(DirectoryError) {
        guard !password.isEmpty else { throw .passwordMissing }
        guard password.utf16.count <= maximumPasswordLength else { throw .passwordTooLong }
    }

    /// Checks a nickname: at most 100 characters.
    public static func validateNickname(_ nickname: String) throws(DirectoryError) {
        guard nickname.utf16.count <= maximumNicknameLength else { throw .nicknameTooLong }
    }
}
