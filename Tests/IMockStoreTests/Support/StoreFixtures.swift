import IMockCore
@testable import IMockStore

/// Domain values and stores shared by the suites.
enum StoreFixtures {
    static let now: Int64 = 1_767_225_600_000
    static let chat = try! AppKey(parsing: "acme#chat")
    static let open = try! AppKey(parsing: "acme#open")

    /// A directory built through the domain API, with the changes the server would have
    /// emitted for each step (one batch per "loop turn").
    static func directoryWithChanges() throws -> (directory: Directory, batches: [[StoreChange]]) {
        var directory = try SeedDocument.parse(bytes: Array(seedWithPolicies.utf8))
            .makeDirectory(settings: DirectorySettings(passwordIterations: 2), nowMs: now)
        var batches: [[StoreChange]] = [directory.appKeys.compactMap { directory.apps[$0].map { .appReplaced(SeedApp.export($0)) } }]

        var batch: [StoreChange] = []
        for name in ["alice", "bob", "carol", "dave"] {
            let user = try directory.registerUser(NewUser(username: name, password: "\(name)-pw"), in: chat, nowMs: now + 1)
            batch.append(.userUpserted(app: chat, user))
        }
        batches.append(batch)

        let issued = try directory.issueUserToken(in: chat, username: "alice", password: "alice-pw", ttlSeconds: nil, nowMs: now + 2)
        _ = try directory.issueUserToken(in: chat, username: "bob", password: "bob-pw", ttlSeconds: 60, nowMs: now + 2)
        directory.revokeToken(id: issued.token.claims.tokenID, in: chat)
        batches.append([
            .tokenCounterAdvanced(app: chat, nextTokenID: directory.apps[chat]!.nextTokenSerial),
            .tokenRevoked(app: chat, tokenID: issued.token.claims.tokenID),
        ])

        let bob = try directory.changePassword("bob", to: "new-pw", in: chat, nowMs: now + 3)
        try directory.revokeAllTokens(of: "alice", in: chat)
        let carol = try directory.setActivated(false, user: "carol", in: chat, nowMs: now + 3)
        try directory.deleteUser("dave", in: chat)
        var settings = directory.apps[open]!.settings
        settings.serviceEnabled = false
        settings.activeUserLimit = 10
        settings.loginPolicy = .easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins), keepCurrentDevice: true))
        try directory.updateSettings(settings, of: open)
        let robot = try directory.issueInheritedUserToken(
            in: open, username: "robot-1", autoCreateUser: true, ttlSeconds: 0, nowMs: now + 4)
        batches.append([
            .userUpserted(app: chat, bob), .userUpserted(app: chat, directory.apps[chat]!.users["alice"]!),
            .userUpserted(app: chat, carol), .userRemoved(app: chat, username: "dave"),
            .appSettingsChanged(app: open, settings: settings),
            .userUpserted(app: open, robot.user),
            .tokenCounterAdvanced(app: open, nextTokenID: directory.apps[open]!.nextTokenSerial),
        ])
        return (directory, batches)
    }

    /// Two apps with non-default login policies (OpenIM, Easemob with device limits).
    static let seedWithPolicies = """
        {"version": 1, "apps": [
          {"appKey": "acme#chat", "registrationMode": "authorized", "restRateLimitPerSecond": 50,
           "loginPolicy": {"vendor": "easemob", "deviceLimits": {"default": 3, "mobile": 2, "custom:7": 1}}},
          {"appKey": "acme#open", "registrationMode": "open", "defaultTokenTTLSeconds": 0,
           "loginPolicy": {"vendor": "openim", "policy": 4},
           "users": [{"username": "zoe", "password": "zoe-pw", "nickname": "Zoë"}]}
        ]}
        """

    /// A message of the offline queue of `to` in the test apps.
    static func message(_ id: Int, from: String = "alice", to: String = "bob") -> ChatMessage {
        ChatMessage(messageId: String(id), from: from, to: to, text: "message \(id) ✓", timestamp: now + Int64(id))
    }

    /// A complete user as the domain would export it, without paying for a password hash.
    static func user(_ index: Int, app: AppKey = chat) -> SeedUser {
        SeedUser(
            username: "user-\(index)", uuid: uuid(index),
            password: .hashed(SeedPasswordHash(iterations: 1000, salt: Array(repeating: 7, count: 16), hash: Array(repeating: UInt8(index % 256), count: 32))),
            nickname: index % 2 == 0 ? "User \(index)" : nil, activated: true, createdMs: now, modifiedMs: now,
            sequence: Int64(index + 1), minimumTokenID: 1)
    }

    /// A deterministic lower-case UUID for `index`.
    static func uuid(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        let tail = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        return "00000000-0000-4000-8000-" + tail
    }

    /// A complete app with `users` (made by ``user(_:app:)``).
    static func app(_ key: AppKey = chat, users: ClosedRange<Int>? = nil) throws -> SeedApp {
        var directory = Directory()
        try directory.createApp(key)
        var app = SeedApp.export(directory.apps[key]!)
        app.users = users.map { $0.map { user($0, app: key) } } ?? []
        return app
    }

    /// Stores ``app(_:users:)`` for `chat` in `store` and returns it.
    @discardableResult
    static func storeApp(users: ClosedRange<Int>? = nil, in store: PersistentStore) throws -> SeedApp {
        let app = try app(users: users)
        try store.apply([.appReplaced(app)])
        return app
    }

    /// Applies the batches of ``directoryWithChanges()`` to `store`; returns the directory.
    static func applyDirectoryChanges(to store: PersistentStore) throws -> Directory {
        let (directory, batches) = try directoryWithChanges()
        for batch in batches { try store.apply(batch) }
        return directory
    }
}
