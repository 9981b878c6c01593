extension SeedDocument {
    /// The document checked against every rule of docs/SEED.md, with usernames folded to their
    /// canonical form. ``parse(bytes:)`` returns validated documents; ``makeDirectory(settings:nowMs:)``
    /// validates again, so a document built in code gets the same checks.
    public func validated() throws(SeedError) -> SeedDocument {
        var result = self
        var appIndexByKey: [AppKey: Int] = [:]
        for index in result.apps.indices {
            let path = "apps[\(index)]"
            if let first = appIndexByKey[result.apps[index].appKey] {
                throw SeedError(
                    path: "\(path).appKey", message: "duplicate app key \(result.apps[index].appKey) (also apps[\(first)])")
            }
            appIndexByKey[result.apps[index].appKey] = index
            try result.apps[index].validate(at: path)
        }
        return result
    }
}

extension SeedApp {
    /// Checks this app and folds its usernames; `path` is this app's JSON path.
    mutating func validate(at path: String) throws(SeedError) {
        if let uuid, !SeedApp.isUUID(uuid) { throw SeedError(path: "\(path).uuid", message: SeedApp.uuidRule) }
        try SeedApp.validate(settings, at: path)
        for (key, credential) in [("clientId", clientID), ("clientSecret", clientSecret)] {
            if let credential, credential.isEmpty || credential.utf8.count > Directory.maximumCredentialLength {
                throw SeedError(path: "\(path).\(key)", message: "must be 1 to \(Directory.maximumCredentialLength) bytes")
            }
        }
        if let signingKey, signingKey.count != SeedApp.signingKeyLength {
            throw SeedError(
                path: "\(path).signingKey", message: "must be \(SeedApp.signingKeyLength) bytes (got \(signingKey.count))")
        }
        let maximumID = UInt64(ValueLimits.maximumCounter)
        if let nextTokenID, nextTokenID < 1 || nextTokenID > maximumID {
            throw SeedError(path: "\(path).nextTokenId", message: "must be 1 to \(maximumID)")
        }
        var revoked: Set<UInt64> = []
        for (index, id) in revokedTokenIDs.enumerated() {
            let idPath = "\(path).revokedTokenIds[\(index)]"
            guard id <= maximumID else { throw SeedError(path: idPath, message: "must be 0 to \(maximumID)") }
            guard revoked.insert(id).inserted else { throw SeedError(path: idPath, message: "duplicate id \(id)") }
        }
        var firstIndexByName: [String: Int] = [:]
        var firstIndexByUUID: [String: Int] = [:]
        var firstIndexBySequence: [Int64: Int] = [:]
        for index in users.indices {
            let userPath = "\(path).users[\(index)]"
            try users[index].validate(at: userPath, nextTokenID: nextTokenID ?? 1)
            let user = users[index]
            if let first = firstIndexByName.updateValue(index, forKey: user.username) {
                throw SeedError(
                    path: "\(userPath).username", message: "duplicate username \(user.username) (also users[\(first)])")
            }
            if let uuid = user.uuid, let first = firstIndexByUUID.updateValue(index, forKey: uuid) {
                throw SeedError(path: "\(userPath).uuid", message: "duplicate uuid \(uuid) (also users[\(first)])")
            }
            if let sequence = user.sequence, let first = firstIndexBySequence.updateValue(index, forKey: sequence) {
                throw SeedError(
                    path: "\(userPath).sequence", message: "duplicate sequence \(sequence) (also users[\(first)])")
            }
        }
    }

    static let signingKeyLength = 32
    static let uuidRule = "must be a lower-case UUID (8-4-4-4-12 hex digits)"

    static func validate(_ settings: AppSettings, at path: String) throws(SeedError) {
        if settings.defaultTokenTTLSeconds < 0 || settings.defaultTokenTTLSeconds > Directory.maximumTTLSeconds {
            throw SeedError(
                path: "\(path).defaultTokenTTLSeconds", message: "must be 0 to \(Directory.maximumTTLSeconds)")
        }
        if let limit = settings.activeUserLimit, limit < 0 {
            throw SeedError(path: "\(path).activeUserLimit", message: "must not be negative")
        }
        if let limit = settings.restRateLimitPerSecond, limit < 1 {
            throw SeedError(path: "\(path).restRateLimitPerSecond", message: "must be at least 1")
        }
        // `loginPolicy` is valid by construction (decoding already refused bad limits).
    }

    /// Lower-case 8-4-4-4-12 hex, as `RandomSource.uuidString()` writes.
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) else { return false }
            }
        }
        return true
    }
}

extension SeedUser {
    /// Checks this user and folds the username; `path` is this user's JSON path.
    mutating func validate(at path: String, nextTokenID: UInt64) throws(SeedError) {
        do {
            username = try UserFields.normalizeUsername(username)
        } catch {
            throw .domain(error, at: "\(path).username")
        }
        if let uuid, !SeedApp.isUUID(uuid) { throw SeedError(path: "\(path).uuid", message: SeedApp.uuidRule) }
        switch password {
        case .plain(let plain):
            do { try UserFields.validatePassword(plain) } catch { throw .domain(error, at: "\(path).password") }
        case .hashed(let hash):
            try hash.validate(at: "\(path).passwordHash")
        case nil:
            break
        }
        if let nickname {
            do { try UserFields.validateNickname(nickname) } catch { throw .domain(error, at: "\(path).nickname") }
        }
        for (key, time) in [("created", createdMs), ("modified", modifiedMs)] {
            if let time, !ValueLimits.epochMs.contains(time) {
                throw SeedError(path: "\(path).\(key)", message: "must be 0 to \(ValueLimits.maximumEpochMs)")
            }
        }
        if let sequence, !(1...ValueLimits.maximumCounter).contains(sequence) {
            throw SeedError(path: "\(path).sequence", message: "must be 1 to \(ValueLimits.maximumCounter)")
        }
        if let minimumTokenID, minimumTokenID < 1 || minimumTokenID > nextTokenID {
            throw SeedError(
                path: "\(path).minimumTokenId", message: "must be 1 to \(nextTokenID) (the app's nextTokenId)")
        }
    }
}

extension SeedPasswordHash {
    func validate(at path: String) throws(SeedError) {
        guard iterations >= 1, iterations <= SeedPasswordHash.maximumIterations else {
            throw SeedError(path: "\(path).iterations", message: "must be 1 to \(SeedPasswordHash.maximumIterations)")
        }
        guard !salt.isEmpty, salt.count <= SeedPasswordHash.maximumSaltLength else {
            throw SeedError(
                path: "\(path).salt",
                message: "must be 1 to \(SeedPasswordHash.maximumSaltLength) bytes (got \(salt.count))")
        }
        guard hash.count == SeedPasswordHash.hashLength else {
            throw SeedError(
                path: "\(path).hash", message: "must be \(SeedPasswordHash.hashLength) bytes (got \(hash.count))")
        }
    }
}
