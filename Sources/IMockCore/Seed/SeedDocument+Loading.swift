import IMockCommon
extension SeedDocument {
    /// Builds a fresh ``Directory`` holding exactly this document's apps and users, or throws
    /// and builds nothing. The document is validated first (see ``validated()``); plain
    /// passwords are hashed with `settings.passwordIterations`; absent uuids, credentials and
    /// signing keys are generated; absent `created` times are `nowMs`.
    /// `progress` is told after each user how many of all the document's users are done
    /// (hashing plain passwords is the slow part of loading a large seed).
    public func makeDirectory(
        settings: DirectorySettings, nowMs: Int64, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(SeedError) -> Directory {
        let document = try validated()
        var directory = Directory(settings: settings)
        let total = document.apps.reduce(0) { $0 + $1.users.count }
        var done = 0
        for seedApp in document.apps {
            directory.apps[seedApp.appKey] = seedApp.makeApp(settings: settings, nowMs: nowMs) {
                done += 1
                progress?(done, total)
            }
        }
        return directory
    }
}

extension Directory {
    /// Replaces app `seed.appKey` (or adds it) with the app described by `seed`, leaving every
    /// other app untouched: the per-app reset and restore of the control API. On error nothing
    /// changes. The seed's username folding and checks are those of ``SeedDocument/validated()``;
    /// error paths start at `apps[0]`.
    public mutating func restoreApp(from seed: SeedApp, nowMs: Int64) throws(SeedError) {
        var checked = seed
        try checked.validate(at: "apps[0]")
        apps[checked.appKey] = checked.makeApp(settings: settings, nowMs: nowMs)
        changeLog.record(.app(checked.appKey))
    }
}

extension SeedApp {
    /// The domain app of a validated seed app.
    func makeApp(settings directorySettings: DirectorySettings, nowMs: Int64, userDone: () -> Void = {}) -> App {
        let random = directorySettings.random
        var app = App(
            key: appKey, uuid: uuid ?? random.uuidString(), settings: settings,
            clientID: clientID ?? "YXA6" + Base64URL.encode(random.bytes(16)),
            clientSecret: clientSecret ?? "YXA6" + Base64URL.encode(random.bytes(24)),
            signingKey: signingKey ?? random.bytes(SeedApp.signingKeyLength))
        app.nextTokenSerial = nextTokenID ?? 1
        app.revokedTokenSerials = Set(revokedTokenIDs)
        var nextSequence = (users.compactMap(\.sequence).max() ?? 0) + 1
        var created: [User] = []
        for seedUser in users {
            let sequence = seedUser.sequence ?? nextSequence
            if seedUser.sequence == nil { nextSequence += 1 }
            let createdMs = seedUser.createdMs ?? nowMs
            created.append(
                User(
                    username: seedUser.username, uuid: seedUser.uuid ?? random.uuidString(),
                    nickname: seedUser.nickname, activated: seedUser.activated, createdMs: createdMs,
                    modifiedMs: seedUser.modifiedMs ?? createdMs,
                    passwordHash: seedUser.password.map {
                        $0.makeHash(iterations: directorySettings.passwordIterations, random: random)
                    },
                    minimumTokenSerial: seedUser.minimumTokenID ?? app.nextTokenSerial, sequence: sequence))
            userDone()
        }
        created.sort { $0.sequence < $1.sequence }
        for user in created { app.users[user.username] = user }
        app.orderedUsernames = created.map(\.username)
        app.nextUserSequence = nextSequence
        return app
    }
}

extension SeedPassword {
    func makeHash(iterations: Int, random: RandomSource) -> PasswordHash {
        switch self {
        case .plain(let password): PasswordHash(hashing: password, iterations: iterations, random: random)
        case .hashed(let stored): PasswordHash(iterations: stored.iterations, salt: stored.salt, digest: stored.hash)
        }
    }
}
