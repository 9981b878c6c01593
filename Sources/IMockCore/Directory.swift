import IMockCommon
/// Settings that apply to the whole ``Directory``.
public struct DirectorySettings: Sendable, Equatable {
    /// PBKDF2 iterations for new password hashes (see ``PasswordHash/defaultIterations``).
    public var passwordIterations: Int
    /// Where UUIDs, salts, keys and credentials come from (seeded for a reproducible run).
    public var random: RandomSource

    /// Creates settings.
    public init(passwordIterations: Int = PasswordHash.defaultIterations, random: RandomSource = .secure) {
        self.passwordIterations = passwordIterations
        self.random = random
    }

    public static func == (lhs: DirectorySettings, rhs: DirectorySettings) -> Bool {
        lhs.passwordIterations == rhs.passwordIterations && lhs.random === rhs.random
    }
}

/// All apps and their users: the stored state behind the REST API.
///
/// A value type with no I/O. Every operation either succeeds or throws a typed error and
/// leaves the directory exactly as it was. Time comes in as `nowMs`; randomness (UUIDs, salts,
/// keys) is drawn only after validation succeeded.
public struct Directory: Sendable, Equatable {
    /// Directory-wide settings.
    public var settings: DirectorySettings
    /// Apps by key.
    public internal(set) var apps: [AppKey: App] = [:]
    /// What changed in the apps, users and tokens since the server last took it (recording is
    /// off unless a store asks for it; not part of the directory's value: `==` ignores it).
    public internal(set) var changeLog = DurableChangeLog()

    /// Most users in one registration request.
    public static let maximumBatchSize = 60
    /// Largest page of `GET /users`.
    public static let maximumPageSize = 100
    /// Longest client id or secret accepted at app creation.
    public static let maximumCredentialLength = 128

    /// Creates an empty directory.
    public init(settings: DirectorySettings = DirectorySettings()) {
        self.settings = settings
    }

    /// Equal settings and apps; the change logs are not compared.
    public static func == (lhs: Directory, rhs: Directory) -> Bool {
        lhs.settings == rhs.settings && lhs.apps == rhs.apps
    }

    /// App keys in ascending order.
    public var appKeys: [AppKey] { apps.keys.sorted() }

    /// The app `key`.
    public func app(_ key: AppKey) throws(DirectoryError) -> App {
        guard let app = apps[key] else { throw .appNotFound(key) }
        return app
    }

    /// Runs `body` on the app `key` in place. Taking the app out with ``app(_:)`` and storing it
    /// back copied its whole user table at every registration while the table was held twice —
    /// quadratic over a run that registers thousands of users. `body` must check before it
    /// changes anything: what it changed before throwing stays changed.
    mutating func modifyApp<T>(_ key: AppKey, _ body: (inout App) throws(DirectoryError) -> T) throws(DirectoryError) -> T {
        guard apps[key] != nil else { throw .appNotFound(key) }
        return try body(&apps[key]!)
    }

    /// The app for URL segments `org`/`app`; any invalid name is simply not found.
    public func app(org: String, app name: String) -> App? {
        guard let key = try? AppKey(org: org, app: name) else { return nil }
        return apps[key]
    }

    /// Creates an app. Client id and secret are generated (`YXA6` + 22 random base64url
    /// characters, like Easemob's) when not given.
    @discardableResult
    public mutating func createApp(
        _ key: AppKey, settings: AppSettings = AppSettings(), clientID: String? = nil, clientSecret: String? = nil
    ) throws(DirectoryError) -> App {
        guard apps[key] == nil else { throw .appExists(key) }
        try Directory.validate(settings)
        for credential in [clientID, clientSecret].compactMap({ $0 }) {
            guard !credential.isEmpty, credential.utf8.count <= Directory.maximumCredentialLength else {
                throw .invalidCredentials(credential.isEmpty ? "empty" : "too long")
            }
        }
        let app = App(
            key: key, settings: settings,
            clientID: clientID ?? "YXA6" + Base64URL.encode(self.settings.random.bytes(16)),
            clientSecret: clientSecret ?? "YXA6" + Base64URL.encode(self.settings.random.bytes(24)),
            random: self.settings.random)
        apps[key] = app
        changeLog.record(.app(key))
        return app
    }

    /// Replaces the settings of app `key`.
    public mutating func updateSettings(_ settings: AppSettings, of key: AppKey) throws(DirectoryError) {
        guard apps[key] != nil else { throw .appNotFound(key) }
        try Directory.validate(settings)
        apps[key]?.settings = settings
        changeLog.record(.appSettings(key))
    }

    static func validate(_ settings: AppSettings) throws(DirectoryError) {
        guard settings.defaultTokenTTLSeconds >= 0, settings.defaultTokenTTLSeconds <= maximumTTLSeconds else {
            throw .invalidSettings("defaultTokenTTLSeconds must be 0...\(maximumTTLSeconds)")
        }
        if let limit = settings.restRateLimitPerSecond, limit < 1 {
            throw .invalidSettings("restRateLimitPerSecond must be at least 1")
        }
        if let limit = settings.activeUserLimit, limit < 0 {
            throw .invalidSettings("activeUserLimit must not be negative")
        }
        // `loginPolicy` needs no check: a LoginPolicy is valid by construction.
    }

    /// Longest accepted `ttl`: 100 years.
    public static let maximumTTLSeconds: Int64 = 100 * 365 * 24 * 3600
}
