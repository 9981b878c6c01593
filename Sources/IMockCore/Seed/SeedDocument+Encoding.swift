import IMockCommon
extension SeedDocument {
    /// The document as seed JSON: deterministic bytes (apps sorted by key, users by username,
    /// revoked ids ascending, members in the fixed order of docs/SEED.md), pretty-printed with a
    /// two-space indent and a final newline so that files diff well. Optional fields that are
    /// nil are left out, except the nullable ones (`activeUserLimit`, `restRateLimitPerSecond`,
    /// `nickname`), which are written as `null`.
    public func encoded() -> [UInt8] {
        PrettyJSON.encode(jsonValue)
    }

    /// The document as a ``JSONValue`` with the member order of ``encoded()``.
    public var jsonValue: JSONValue {
        .object([
            ("version", .int(SeedDocument.currentVersion)),
            ("apps", .array(apps.sorted { $0.appKey < $1.appKey }.map(\.jsonValue))),
        ])
    }
}

extension SeedApp {
    var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("appKey", .string(appKey.description))]
        if let uuid { members.append(("uuid", .string(uuid))) }
        members.append(("registrationMode", .string(settings.registrationMode.rawValue)))
        if let clientID { members.append(("clientId", .string(clientID))) }
        if let clientSecret { members.append(("clientSecret", .string(clientSecret))) }
        let activeUserLimit: JSONValue = settings.activeUserLimit.map { .int(Int64($0)) } ?? .null
        let restRateLimit: JSONValue = settings.restRateLimitPerSecond.map { .int(Int64($0)) } ?? .null
        members.append(("defaultTokenTTLSeconds", .int(settings.defaultTokenTTLSeconds)))
        members.append(("serviceEnabled", .bool(settings.serviceEnabled)))
        members.append(("activeUserLimit", activeUserLimit))
        members.append(("restRateLimitPerSecond", restRateLimit))
        members.append(("loginPolicy", settings.loginPolicy.seedJSONValue))
        if let signingKey { members.append(("signingKey", .string(Base64.encode(signingKey)))) }
        if let nextTokenID { members.append(("nextTokenId", .int(Int64(clamping: nextTokenID)))) }
        members.append(("revokedTokenIds", .array(revokedTokenIDs.sorted().map { .int(Int64(clamping: $0)) })))
        members.append(("users", .array(users.sorted { $0.username < $1.username }.map(\.jsonValue))))
        return .object(members)
    }
}

extension SeedUser {
    var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("username", .string(username))]
        if let uuid { members.append(("uuid", .string(uuid))) }
        switch password {
        case .plain(let plain): members.append(("password", .string(plain)))
        case .hashed(let hash): members.append(("passwordHash", hash.jsonValue))
        case nil: break
        }
        let nicknameValue: JSONValue = nickname.map { .string($0) } ?? .null
        members.append(("nickname", nicknameValue))
        members.append(("activated", .bool(activated)))
        if let createdMs { members.append(("created", .int(createdMs))) }
        if let modifiedMs { members.append(("modified", .int(modifiedMs))) }
        if let sequence { members.append(("sequence", .int(sequence))) }
        if let minimumTokenID { members.append(("minimumTokenId", .int(Int64(clamping: minimumTokenID)))) }
        return .object(members)
    }
}

extension SeedPasswordHash {
    var jsonValue: JSONValue {
        .object([
            ("algorithm", .string(SeedPasswordHash.algorithm)),
            ("iterations", .int(Int64(iterations))),
            ("salt", .string(Base64.encode(salt))),
            ("hash", .string(Base64.encode(hash))),
        ])
    }
}
