/// What an app serving OpenIM SDKs needs of the directory (reference openim-zim.md §A1): users
/// registered without a password, JWT tokens bound to a platform, and tokens marked kicked.
extension Directory {
    /// OpenIM's Admin platform: admin tokens are issued for it and the policies ignore it.
    public static let openIMAdminPlatformID = OpenIMPlatform.admin.rawValue

    /// An admin token (OpenIM `/auth/get_admin_token`): an app token in OpenIM's JWT format for
    /// platform 10, issued for the app's client secret (compared by `Crypto.secretsEqual`, whose
    /// time shows neither where a wrong secret differs nor the secret's length).
    public mutating func issueOpenIMAdminToken(
        in key: AppKey, secret: String, ttlSeconds: Int64?, nowMs: Int64
    ) throws(DirectoryError) -> IssuedToken {
        // Only the credentials are taken out: a copy of the app held while `issue` changes it
        // would copy its tables.
        guard let (clientID, clientSecret) = apps[key].map({ ($0.clientID, $0.clientSecret) }) else {
            throw .appNotFound(key)
        }
        guard Crypto.secretsEqual(secret, clientSecret) else {
            throw .clientSecretMismatch
        }
        return try issue(
            .app, subject: clientID, in: key, ttlSeconds: ttlSeconds, nowMs: nowMs,
            openIMPlatformID: Directory.openIMAdminPlatformID)
    }

    /// A user token bound to `platform` (OpenIM `/auth/get_user_token`; the caller checked the
    /// admin token). The user must exist and be activated.
    public mutating func issueOpenIMUserToken(
        in key: AppKey, username: String, platform: OpenIMPlatform, ttlSeconds: Int64?, nowMs: Int64
    ) throws(DirectoryError) -> IssuedToken {
        let user = try user(username, in: key)
        guard user.activated else { throw .userNotActivated(user.username) }
        return try issue(
            .user, subject: user.username, in: key, ttlSeconds: ttlSeconds, nowMs: nowMs,
            openIMPlatformID: platform.rawValue)
    }

    /// Registers users without a password (OpenIM `/user/user_register`): every name must be
    /// valid, new and given once, or nothing is created. Their tokens come from
    /// ``issueOpenIMUserToken(in:username:platform:ttlSeconds:nowMs:)`` or the `inherit` grant.
    @discardableResult
    public mutating func registerPasswordlessUsers(
        _ entries: [(username: String, nickname: String?)], in key: AppKey, nowMs: Int64
    ) throws(DirectoryError) -> [User] {
        let random = settings.random
        let created = try modifyApp(key) { app throws(DirectoryError) in
            var names: [String] = []
            var seen: Set<String> = []
            for entry in entries {
                let name = try UserFields.normalizeUsername(entry.username)
                if let nickname = entry.nickname { try UserFields.validateNickname(nickname) }
                guard seen.insert(name).inserted else { throw .userExistsInBatch(name) }
                guard app.users[name] == nil else { throw .userExists(name) }
                names.append(name)
            }
            // All or nothing: the sequences are checked before the first user is added.
            guard app.hasUserSequences(left: names.count) else { throw .countersExhausted("user sequence") }
            return zip(names, entries).map { name, entry in
                app.insertUser(name, passwordHash: nil, nickname: entry.nickname, nowMs: nowMs, random: random)
            }
        }
        for user in created { changeLog.record(.user(key, username: user.username)) }
        return created
    }

    /// Marks every kept OpenIM token of `username` bound to `platformID` as kicked (OpenIM force
    /// logout: later handshakes and REST calls with them get 1506). Tokens older than the app's
    /// kept token records (``IssuedTokens/capacity``) are not found. Returns their ids.
    @discardableResult
    public mutating func kickOpenIMTokens(of username: String, platformID: Int, in key: AppKey) -> [UInt64] {
        guard let app = apps[key], let name = try? UserFields.normalizeUsername(username) else { return [] }
        let ids = app.issuedTokens.records.filter {
            $0.kind == .user && $0.subject == name && $0.platformID == platformID && $0.revocation == nil
        }.map(\.id)
        for id in ids { revokeToken(id: id, in: key, reason: .kicked) }
        return ids
    }
}
