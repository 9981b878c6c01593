extension SeedDocument {
    /// Parses and validates a seed document (docs/SEED.md) with the strict ``JSONValue``
    /// parser. Unknown or duplicate keys, wrong types, illegal values, and duplicate app keys
    /// or usernames are errors naming their JSON path. Usernames come back canonical (lower case).
    public static func parse(bytes: [UInt8]) throws(SeedError) -> SeedDocument {
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            guard error.reason != .duplicateKey else { throw SeedError(path: error.path, message: "duplicate key") }
            throw SeedError(path: "", message: "not valid JSON: \(error.reason.rawValue) at byte \(error.offset)")
        }
        return try decode(json).validated()
    }

    static func decode(_ json: JSONValue) throws(SeedError) -> SeedDocument {
        try SeedError.mapping { try decodeDocument(json) }
    }

    private static func decodeDocument(_ json: JSONValue) throws -> SeedDocument {
        let root = try JSONObjectReader.seed(json, at: "", allowedKeys: SeedKeys.document)
        let version = try root.requiredInt("version")
        guard version == currentVersion else {
            throw SeedError(path: "version", message: "unsupported version \(version) (this build reads \(currentVersion))")
        }
        let elements = try root.requiredArray("apps")
        var apps: [SeedApp] = []
        for (index, element) in elements.enumerated() {
            apps.append(try decodeApp(element, at: "apps[\(index)]"))
        }
        return SeedDocument(apps: apps)
    }

    private static func decodeApp(_ json: JSONValue, at path: String) throws -> SeedApp {
        let object = try JSONObjectReader.seed(json, at: path, allowedKeys: SeedKeys.app)
        let keyText = try object.requiredString("appKey")
        let appKey: AppKey
        do {
            appKey = try AppKey(parsing: keyText)
        } catch {
            throw SeedError.domain(error, at: object.childPath("appKey"))
        }
        var app = SeedApp(appKey: appKey)
        app.uuid = try object.string("uuid")
        if let mode = try object.string("registrationMode") {
            guard let parsed = RegistrationMode(rawValue: mode) else {
                throw SeedError(path: object.childPath("registrationMode"), message: #"must be "open" or "authorized""#)
            }
            app.settings.registrationMode = parsed
        }
        app.clientID = try object.string("clientId")
        app.clientSecret = try object.string("clientSecret")
        if let ttl = try object.int("defaultTokenTTLSeconds", in: 0...Directory.maximumTTLSeconds) {
            app.settings.defaultTokenTTLSeconds = ttl
        }
        if let enabled = try object.bool("serviceEnabled") { app.settings.serviceEnabled = enabled }
        app.settings.activeUserLimit = try object.nullableInt("activeUserLimit", in: ValueLimits.count).map { Int($0) }
        app.settings.restRateLimitPerSecond = try object.nullableInt("restRateLimitPerSecond", in: ValueLimits.count)
            .map { Int($0) }
        if let policy = object.value("loginPolicy") {
            app.settings.loginPolicy = try decodeLoginPolicy(policy, at: object.childPath("loginPolicy"))
        }
        app.signingKey = try object.base64("signingKey")
        app.nextTokenID = try object.tokenID("nextTokenId")
        for (index, element) in (try object.array("revokedTokenIds") ?? []).enumerated() {
            let elementPath = object.childPath("revokedTokenIds") + "[\(index)]"
            guard let id = element.intValue else { throw SeedError(path: elementPath, message: "must be an integer") }
            guard ValueLimits.counter.contains(id) else {
                throw SeedError(path: elementPath, message: "must be 0 to \(ValueLimits.maximumCounter)")
            }
            app.revokedTokenIDs.append(UInt64(id))
        }
        for (index, element) in (try object.array("users") ?? []).enumerated() {
            app.users.append(try decodeUser(element, at: object.childPath("users") + "[\(index)]"))
        }
        return app
    }

    private static func decodeUser(_ json: JSONValue, at path: String) throws -> SeedUser {
        let object = try JSONObjectReader.seed(json, at: path, allowedKeys: SeedKeys.user)
        var user = SeedUser(username: try object.requiredString("username"))
        user.uuid = try object.string("uuid")
        if let plain = try object.string("password") { user.password = .plain(plain) }
        if let hashJSON = object.value("passwordHash"), !hashJSON.isNull {
            guard user.password == nil else {
                throw SeedError(path: object.childPath("passwordHash"), message: "conflicts with password (give one of them)")
            }
            user.password = .hashed(try decodeHash(hashJSON, at: object.childPath("passwordHash")))
        }
        user.nickname = try object.nullableString("nickname")
        if let activated = try object.bool("activated") { user.activated = activated }
        user.createdMs = try object.int("created", in: ValueLimits.epochMs)
        user.modifiedMs = try object.int("modified", in: ValueLimits.epochMs)
        user.sequence = try object.int("sequence", in: 1...ValueLimits.maximumCounter)
        user.minimumTokenID = try object.tokenID("minimumTokenId")
        return user
    }

    private static func decodeHash(_ json: JSONValue, at path: String) throws -> SeedPasswordHash {
        let object = try JSONObjectReader.seed(json, at: path, allowedKeys: SeedKeys.passwordHash)
        guard try object.requiredString("algorithm") == SeedPasswordHash.algorithm else {
            throw SeedError(path: object.childPath("algorithm"), message: #"must be "\#(SeedPasswordHash.algorithm)""#)
        }
        let iterations = try object.requiredInt("iterations", in: 1...Int64(SeedPasswordHash.maximumIterations))
        guard let salt = try object.base64("salt") else {
            throw SeedError(path: object.childPath("salt"), message: "is required")
        }
        guard let hash = try object.base64("hash") else {
            throw SeedError(path: object.childPath("hash"), message: "is required")
        }
        return SeedPasswordHash(iterations: Int(iterations), salt: salt, hash: hash)
    }
}
