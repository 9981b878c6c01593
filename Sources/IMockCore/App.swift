import IMockCommon
/// One app (tenant): its settings, credentials, signing key, users, revoked tokens and the
/// records of its most recently issued tokens.
public struct App: Sendable, Equatable {
    /// `org#app`.
    public let key: AppKey
    /// A random v4 UUID, reported as `application` in REST envelopes.
    public let uuid: String
    /// Adjustable settings.
    public var settings: AppSettings
    /// The `client_id` for grant `client_credentials`.
    public let clientID: String
    /// The `client_secret` for grant `client_credentials`.
    public let clientSecret: String
    /// 32 random bytes that sign this app's tokens.
    let signingKey: [UInt8]
    /// Users by canonical username.
    public internal(set) var users: [String: User] = [:]
    /// Usernames in creation order (ascending ``User/sequence``).
    var orderedUsernames: [String] = []
    var nextUserSequence: Int64 = 1
    /// The serial of the next token issued by this app.
    public internal(set) var nextTokenSerial: UInt64 = 1
    /// Serials of individually revoked tokens.
    public internal(set) var revokedTokenSerials: Set<UInt64> = []
    /// The most recent issued tokens (at most ``IssuedTokens/capacity``), for inspection only;
    /// not part of seeds, so a restored or reset app starts with none.
    public internal(set) var issuedTokens = IssuedTokens()

    /// The number of users.
    public var userCount: Int { users.count }

    init(key: AppKey, settings: AppSettings, clientID: String, clientSecret: String, random: RandomSource) {
        self.key = key
        self.settings = settings
        self.clientID = clientID
        self.clientSecret = clientSecret
        uuid = random.uuidString()
        signingKey = random.bytes(32)
    }

    /// Whether another user can be added: sequences stop at ``ValueLimits/maximumCounter``.
    var hasUserSequenceLeft: Bool { hasUserSequences(left: 1) }

    /// Whether `count` more users can be added.
    func hasUserSequences(left count: Int) -> Bool {
        count <= 0 || nextUserSequence <= ValueLimits.maximumCounter - Int64(count - 1)
    }

    /// Adds a validated, not yet existing user (the caller checked ``hasUserSequenceLeft``);
    /// `passwordHash` nil = no password login.
    mutating func insertUser(
        _ name: String, passwordHash: PasswordHash?, nickname: String?, nowMs: Int64, random: RandomSource
    ) -> User {
        let user = User(
            username: name, uuid: random.uuidString(), nickname: nickname, activated: true,
            createdMs: nowMs, modifiedMs: nowMs, passwordHash: passwordHash,
            minimumTokenSerial: nextTokenSerial, sequence: nextUserSequence)
        nextUserSequence += 1
        users[name] = user
        orderedUsernames.append(name)
        return user
    }

    /// Where `sequence` is (or would be inserted) in ``orderedUsernames``.
    func orderIndex(ofSequence sequence: Int64) -> Int {
        orderedUsernames.partitioningIndex { name in
            guard let user = users[name] else { return true }
            return user.sequence >= sequence
        }
    }
}
