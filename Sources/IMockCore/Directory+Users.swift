import IMockCommon
/// One entry of a registration request, as received (the username not yet folded).
public struct NewUser: Sendable, Equatable {
    /// The username as given.
    public var username: String
    /// The password; must be 1–64 characters.
    public var password: String
    /// The optional nickname, ≤ 100 characters.
    public var nickname: String?
    /// The password's hash when it was derived ahead (off the loop, ``Directory/derivation(of:)``);
    /// nil to hash `password` while registering.
    public var passwordHash: PasswordHash?

    /// Creates an entry.
    public init(username: String, password: String, nickname: String? = nil, passwordHash: PasswordHash? = nil) {
        self.username = username
        self.password = password
        self.nickname = nickname
        self.passwordHash = passwordHash
    }
}

/// The outcome of a batch registration: created users, and those refused because they exist.
public struct BatchRegistration: Sendable, Equatable {
    /// Users created, in request order.
    public var created: [User]
    /// Canonical usernames that already existed, in request order.
    public var existing: [String]
}

/// One page of the user list.
public struct UserPage: Sendable, Equatable {
    /// Users in creation order.
    public var users: [User]
    /// Opaque cursor for the next page; nil on the last page.
    public var cursor: String?
}

extension Directory {
    /// The user `username` (folded before lookup).
    public func user(_ username: String, in key: AppKey) throws(DirectoryError) -> User {
        let app = try app(key)
        let name = try UserFields.normalizeUsername(username)
        guard let user = app.users[name] else { throw .userNotFound(name) }
        return user
    }

    /// Registers one user; an existing name is an error.
    @discardableResult
    public mutating func registerUser(_ entry: NewUser, in key: AppKey, nowMs: Int64) throws(DirectoryError) -> User {
        guard apps[key] != nil else { throw .appNotFound(key) }
        let name = try Directory.validate(entry)
        let (random, iterations) = (settings.random, settings.passwordIterations)
        let user = try modifyApp(key) { app throws(DirectoryError) in
            guard app.users[name] == nil else { throw .userExists(name) }
            guard app.hasUserSequenceLeft else { throw .countersExhausted("user sequence") }
            let hash = entry.passwordHash ?? PasswordHash(hashing: entry.password, iterations: iterations, random: random)
            return app.insertUser(name, passwordHash: hash, nickname: entry.nickname, nowMs: nowMs, random: random)
        }
        changeLog.record(.user(key, username: name))
        return user
    }

    /// Registers up to ``maximumBatchSize`` users. Any invalid entry, or the same name twice,
    /// refuses the whole batch; names that already exist are reported in
    /// ``BatchRegistration/existing`` while the others are created.
    public mutating func registerBatch(_ entries: [NewUser], in key: AppKey, nowMs: Int64) throws(DirectoryError)
        -> BatchRegistration
    {
        guard apps[key] != nil else { throw .appNotFound(key) }
        guard entries.count <= Directory.maximumBatchSize else { throw .batchTooLarge(entries.count) }
        var names: [String] = []
        var seen: Set<String> = []
        for entry in entries {
            let name = try Directory.validate(entry)
            guard seen.insert(name).inserted else { throw .userExistsInBatch(name) }
            names.append(name)
        }
        let (random, iterations) = (settings.random, settings.passwordIterations)
        let result = try modifyApp(key) { app throws(DirectoryError) in
            // All or nothing: the sequences are checked before the first user is added.
            let new = zip(names, entries).filter { name, _ in app.users[name] == nil }
            guard app.hasUserSequences(left: new.count) else { throw .countersExhausted("user sequence") }
            var result = BatchRegistration(created: [], existing: names.filter { app.users[$0] != nil })
            for (name, entry) in new {
                let hash = entry.passwordHash ?? PasswordHash(hashing: entry.password, iterations: iterations, random: random)
                result.created.append(app.insertUser(name, passwordHash: hash, nickname: entry.nickname, nowMs: nowMs, random: random))
            }
            return result
        }
        for user in result.created { changeLog.record(.user(key, username: user.username)) }
        return result
    }

    /// Users in creation order, `limit` (1...100) at a time, after `cursor`.
    public func users(in key: AppKey, limit: Int, cursor: String?) throws(DirectoryError) -> UserPage {
        let app = try app(key)
        guard limit >= 1, limit <= Directory.maximumPageSize else { throw .invalidLimit(limit) }
        var start = 0
        if let cursor {
            guard let sequence = Directory.sequence(fromCursor: cursor) else { throw .invalidCursor(cursor) }
            start = app.orderIndex(ofSequence: sequence + 1)
        }
        let end = min(start + limit, app.orderedUsernames.count)
        let users = app.orderedUsernames[start..<end].compactMap { app.users[$0] }
        let next = end < app.orderedUsernames.count ? users.last.map { Directory.cursor(after: $0.sequence) } : nil
        return UserPage(users: users, cursor: next)
    }

    /// Deletes a user; their tokens stop working.
    @discardableResult
    public mutating func deleteUser(_ username: String, in key: AppKey) throws(DirectoryError) -> User {
        let user = try user(username, in: key)
        try modifyApp(key) { app in
            app.users[user.username] = nil
            let index = app.orderIndex(ofSequence: user.sequence)
            if index < app.orderedUsernames.count, app.orderedUsernames[index] == user.username {
                app.orderedUsernames.remove(at: index)
            }
        }
        changeLog.record(.user(key, username: user.username))
        return user
    }

    /// Sets a new password; every token issued to the user before now is refused afterwards.
    @discardableResult
    /// `derived` is the new password's hash when it was derived ahead (``derivation(of:)``).
    public mutating func changePassword(
        _ username: String, to password: String, derived: PasswordHash? = nil, in key: AppKey, nowMs: Int64
    ) throws(DirectoryError) -> User {
        var user = try user(username, in: key)
        try UserFields.validatePassword(password)
        user.passwordHash = derived ?? derivation(of: password).derive()
        user.modifiedMs = nowMs
        user.minimumTokenSerial = apps[key]?.nextTokenSerial ?? user.minimumTokenSerial
        apps[key]?.users[user.username] = user
        changeLog.record(.user(key, username: user.username))
        return user
    }

    /// Activates (unbans) or deactivates (bans) a user.
    @discardableResult
    public mutating func setActivated(_ activated: Bool, user username: String, in key: AppKey, nowMs: Int64)
        throws(DirectoryError) -> User
    {
        var user = try user(username, in: key)
        user.activated = activated
        user.modifiedMs = nowMs
        apps[key]?.users[user.username] = user
        changeLog.record(.user(key, username: user.username))
        return user
    }

    /// The canonical username of `entry` once its fields are valid (what registering checks
    /// first).
    public static func validate(_ entry: NewUser) throws(DirectoryError) -> String {
        let name = try UserFields.normalizeUsername(entry.username)
        try UserFields.validatePassword(entry.password)
        if let nickname = entry.nickname { try UserFields.validateNickname(nickname) }
        return name
    }

    /// The derivation of `password`'s hash with this directory's iterations and a salt drawn
    /// from its random source; ``PasswordDerivation/derive()`` may then run on another thread.
    public func derivation(of password: String) -> PasswordDerivation {
        PasswordDerivation(password: password, iterations: settings.passwordIterations, random: settings.random)
    }

    static func cursor(after sequence: Int64) -> String {
        Base64URL.encode(Array("imock-users:\(sequence)".utf8))
    }

    static func sequence(fromCursor cursor: String) -> Int64? {
        guard let bytes = Base64URL.decode(cursor), let text = String(validating: bytes, as: UTF8.self),
            text.hasPrefix("imock-users:"), let sequence = Int64(text.dropFirst("imock-users:".count)),
            ValueLimits.counter.contains(sequence)
        else { return nil }
        return sequence
    }
}
