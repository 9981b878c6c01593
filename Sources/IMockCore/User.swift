/// A user of one app.
public struct User: Sendable, Equatable {
    /// The canonical (lower-case) username, unique within the app.
    public let username: String
    /// A random v4 UUID.
    public let uuid: String
    /// The push display nickname, if set.
    public var nickname: String?
    /// False while the user is banned (deactivated).
    public var activated: Bool
    /// Creation time, epoch ms.
    public let createdMs: Int64
    /// Last change, epoch ms.
    public var modifiedMs: Int64
    /// The password hash; nil for users auto-created by an `inherit` token grant.
    public internal(set) var passwordHash: PasswordHash?
    /// Tokens of this user with a serial below this are refused (set on creation and on
    /// password change), so a re-created user or a changed password invalidates old tokens.
    public internal(set) var minimumTokenSerial: UInt64
    /// Creation order within the app; pagination cursors point at it.
    public let sequence: Int64
}
