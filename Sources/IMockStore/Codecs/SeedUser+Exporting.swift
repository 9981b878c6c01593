import IMockCore

extension SeedUser {
    /// The complete stored form of `user` (uuid, hash, times, sequence, minimum token id), as
    /// ``SeedApp/export(_:)`` writes each user — without exporting the whole app.
    public init(exporting user: User) {
        self.init(
            username: user.username, uuid: user.uuid,
            password: user.passwordHash.map {
                .hashed(SeedPasswordHash(iterations: $0.iterations, salt: $0.salt, hash: $0.digest))
            },
            nickname: user.nickname, activated: user.activated, createdMs: user.createdMs,
            modifiedMs: user.modifiedMs, sequence: user.sequence, minimumTokenID: user.minimumTokenSerial)
    }
}
