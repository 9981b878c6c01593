/// Identifies an app (tenant): `org#app`.
///
/// Rules: the app name is 1–32 lower-case ASCII letters, digits or `-` (reference
/// easemob.md §1.1); the org name is 1–64 ASCII letters, digits, `-` or `_` (Easemob does not
/// publish its org rule; this is a conservative choice that keeps URLs and `#` unambiguous).
public struct AppKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The organisation name, the first path segment of REST URLs.
    public var org: String { names.org }
    /// The app name, the second path segment of REST URLs.
    public var app: String { names.app }
    /// Both names behind one reference: every session, user entry and journal entry holds its
    /// app's key, and copies of the directory's share one object (a word each, not four;
    /// docs/BENCHMARKS.md, `fleet`).
    private let names: Names

    private final class Names: Sendable {
        let org: String
        let app: String

        init(org: String, app: String) {
            self.org = org
            self.app = app
        }
    }

    /// The longest accepted org name in bytes.
    public static let maximumOrgLength = 64
    /// The longest accepted app name in bytes.
    public static let maximumAppLength = 32

    /// Validates both names.
    public init(org: String, app: String) throws(DirectoryError) {
        guard AppKey.isValidOrg(org) else { throw .invalidOrgName(org) }
        guard AppKey.isValidApp(app) else { throw .invalidAppName(app) }
        names = Names(org: org, app: app)
    }

    /// Parses `org#app`.
    public init(parsing text: String) throws(DirectoryError) {
        let utf8 = text.utf8
        guard let hash = utf8.firstIndex(of: UInt8(ascii: "#")),
            !utf8[utf8.index(after: hash)...].contains(UInt8(ascii: "#"))
        else { throw .invalidAppKey(text) }
        try self.init(
            org: String(Substring(utf8[..<hash])), app: String(Substring(utf8[utf8.index(after: hash)...])))
    }

    /// `org#app`.
    public var description: String { "\(org)#\(app)" }

    public static func < (lhs: AppKey, rhs: AppKey) -> Bool { lhs.description < rhs.description }

    public static func == (lhs: AppKey, rhs: AppKey) -> Bool {
        lhs.names === rhs.names || (lhs.org == rhs.org && lhs.app == rhs.app)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(org)
        hasher.combine(app)
    }

    static func isValidOrg(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= maximumOrgLength
            && bytes.allSatisfy { isLowerOrDigitOrHyphen($0) || ($0 >= 0x41 && $0 <= 0x5A) || $0 == UInt8(ascii: "_") }
    }

    static func isValidApp(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= maximumAppLength && bytes.allSatisfy(isLowerOrDigitOrHyphen)
    }

    private static func isLowerOrDigitOrHyphen(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
    }
}
