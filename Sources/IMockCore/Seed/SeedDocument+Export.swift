extension SeedDocument {
    /// The complete state of `directory` as a seed document: every app with its uuid,
    /// credentials, signing key and token counters, every user with their password hash
    /// (never plain text). Loading it back gives a directory whose export is byte-identical.
    public static func export(_ directory: Directory) -> SeedDocument {
        SeedDocument(apps: directory.appKeys.compactMap { directory.apps[$0].map(SeedApp.export) })
    }
}

extension SeedApp {
    /// The complete state of one app (for per-app checkpoints and reset).
    public static func export(_ app: App) -> SeedApp {
        SeedApp(
            appKey: app.key, uuid: app.uuid, settings: app.settings, clientID: app.clientID,
            clientSecret: app.clientSecret, signingKey: app.signingKey, nextTokenID: app.nextTokenSerial,
            revokedTokenIDs: app.revokedTokenSerials.sorted(),
            users: app.users.keys.sorted().compactMap { name in
                app.users[name].map { user in
                    SeedUser(
                        username: user.username, uuid: user.uuid,
                        password: user.passwordHash.map {
                            .hashed(SeedPasswordHash(iterations: $0.iterations, salt: $0.salt, hash: $0.digest))
                        },
                        nickname: user.nickname, activated: user.activated, createdMs: user.createdMs,
                        modifiedMs: user.modifiedMs, sequence: user.sequence, minimumTokenID: user.minimumTokenSerial)
                }
            })
    }
}
