extension Directory {
    /// Issues an app token (grant `client_credentials`). `ttlSeconds` nil = the app default,
    /// 0 = never expires.
    public mutating func issueAppToken(
        in key: AppKey, clientID: String, clientSecret: String, ttlSeconds: Int64?, nowMs: Int64
    ) throws(DirectoryError) -> IssuedToken {
        let subject = try checkClientCredentials(clientID: clientID, clientSecret: clientSecret, of: key)
        return try issue(.app, subject: subject, in: key, ttlSeconds: ttlSeconds, nowMs: nowMs)
    }

    /// Issues a user token for username and password (grant `password`); `derived` is the
    /// password's hash when it was derived ahead with the user's salt, off the loop.
    public mutating func issueUserToken(
        in key: AppKey, username: String, password: String, derived: PasswordHash? = nil, ttlSeconds: Int64?,
        nowMs: Int64
    ) throws(DirectoryError) -> (token: IssuedToken, user: User) {
        let user = try user(username, in: key)
        guard let hash = user.passwordHash, hash.verify(password, derived: derived) else { throw .invalidPassword }
        guard user.activated else { throw .userNotActivated(user.username) }
        let token = try issue(.user, subject: user.username, in: key, ttlSeconds: ttlSeconds, nowMs: nowMs)
        return (token, user)
    }

    /// Issues a user token by name alone (grant `inherit`; the caller checked the app token).
    /// With `autoCreateUser` a missing user is created without a password.
    public mutating func issueInheritedUserToken(
        in key: AppKey, username: String, autoCreateUser: Bool, ttlSeconds: Int64?, nowMs: Int64
    ) throws(DirectoryError) -> (token: IssuedToken, user: User, created: Bool) {
        // No local copy of the app is held while issuing (see `issue`).
        guard apps[key] != nil else { throw .appNotFound(key) }
        let name = try UserFields.normalizeUsername(username)
        try Directory.checkTTL(ttlSeconds, nowMs: nowMs)
        if let user = apps[key]?.users[name] {
            guard user.activated else { throw .userNotActivated(name) }
            let token = try issue(.user, subject: name, in: key, ttlSeconds: ttlSeconds, nowMs: nowMs)
            return (token, user, false)
        }
        guard autoCreateUser else { throw .userNotFound(name) }
        guard apps[key]?.hasUserSequenceLeft == true else { throw .countersExhausted("user sequence") }
        guard let user = apps[key]?.insertUser(name, passwordHash: nil, nickname: nil, nowMs: nowMs, random: settings.random) else {
            throw .appNotFound(key)
        }
        changeLog.record(.user(key, username: name))
        let token = try issue(.user, subject: name, in: key, ttlSeconds: ttlSeconds, nowMs: nowMs)
        return (token, user, true)
    }

    /// Checks a token presented to app `key`: format (`YWMt…` or an OpenIM JWT), MAC (constant
    /// time), app, expiry, revocation (``TokenError/kicked`` when it was revoked by a kick).
    public func verifyToken(_ token: String, for key: AppKey, nowMs: Int64) throws(TokenError) -> TokenClaims {
        let (claims, signedBytes, mac) =
            OpenIMTokenCodec.looksLikeJWT(token)
            ? try OpenIMTokenCodec.decodeUnverified(token) : try TokenCodec.decodeUnverified(token)
        guard claims.appKey == key else {
            if let other = apps[claims.appKey],
                TokenCodec.verifyMAC(signedBytes: signedBytes, mac: mac, signingKey: other.signingKey)
            {
                throw .otherApp(claims.appKey)
            }
            throw .badSignature
        }
        guard let app = apps[key], TokenCodec.verifyMAC(signedBytes: signedBytes, mac: mac, signingKey: app.signingKey)
        else { throw .badSignature }
        if let expiry = claims.expiresAtMs, nowMs >= expiry { throw .expired }
        guard !app.revokedTokenSerials.contains(claims.tokenID) else {
            throw app.issuedTokens.record(id: claims.tokenID)?.revocation == .kicked ? .kicked : .revoked
        }
        switch claims.kind {
        case .app:
            guard claims.subject == app.clientID else { throw .revoked }
        case .user:
            guard let user = app.users[claims.subject], claims.tokenID >= user.minimumTokenSerial else {
                throw .revoked
            }
        }
        return claims
    }

    /// Revokes one token of app `key` by its id (reason ``TokenRevocationReason/revoked``);
    /// false if the app does not exist.
    @discardableResult
    public mutating func revokeToken(id: UInt64, in key: AppKey) -> Bool {
        revokeToken(id: id, in: key, reason: .revoked)
    }

    /// Revokes one token of app `key` by its id and notes why in its issue record (if still
    /// kept; a token revoked twice keeps the first reason); false if the app does not exist.
    @discardableResult
    public mutating func revokeToken(id: UInt64, in key: AppKey, reason: TokenRevocationReason) -> Bool {
        guard apps[key] != nil else { return false }
        apps[key]?.revokedTokenSerials.insert(id)
        changeLog.record(.tokenRevoked(key, id: id))
        apps[key]?.issuedTokens.markRevoked(id: id, reason: reason)
        return true
    }

    /// Refuses every token of `username` issued so far (future tokens still work).
    public mutating func revokeAllTokens(of username: String, in key: AppKey) throws(DirectoryError) {
        let user = try user(username, in: key)
        guard let serial = apps[key]?.nextTokenSerial else { throw .appNotFound(key) }
        apps[key]?.users[user.username]?.minimumTokenSerial = serial
        changeLog.record(.user(key, username: user.username))
    }

    /// The app's client id when `clientID` and `clientSecret` match. Both are compared in
    /// constant time (`Crypto.secretsEqual`), and both always: which one was wrong still shows
    /// in the error (Easemob's REST answers tell them apart), but not through timing.
    private func checkClientCredentials(clientID: String, clientSecret: String, of key: AppKey)
        throws(DirectoryError) -> String
    {
        let app = try app(key)
        let idMatches = Crypto.secretsEqual(clientID, app.clientID)
        let secretMatches = Crypto.secretsEqual(clientSecret, app.clientSecret)
        guard idMatches else { throw .clientIDMismatch }
        guard secretMatches else { throw .clientSecretMismatch }
        return app.clientID
    }

    static func checkTTL(_ ttlSeconds: Int64?, nowMs: Int64) throws(DirectoryError) {
        guard let ttl = ttlSeconds else { return }
        guard ttl >= 0, ttl <= maximumTTLSeconds else { throw .invalidTTL(ttl) }
    }

    /// Issues a token; `openIMPlatformID` makes it an OpenIM JWT bound to that platform, its
    /// issue time rounded down to a whole second (so its expiry is one too).
    mutating func issue(
        _ kind: TokenKind, subject: String, in key: AppKey, ttlSeconds: Int64?, nowMs: Int64,
        openIMPlatformID: Int? = nil
    ) throws(DirectoryError) -> IssuedToken {
        try Directory.checkTTL(ttlSeconds, nowMs: nowMs)
        // Read fields rather than copying the app: a local copy would make the in-place
        // append to `issuedTokens` below copy the whole list (copy-on-write).
        guard let defaultTTL = apps[key]?.settings.defaultTokenTTLSeconds, let serial = apps[key]?.nextTokenSerial,
            let signingKey = apps[key]?.signingKey
        else { throw .appNotFound(key) }
        guard serial <= UInt64(ValueLimits.maximumCounter) else { throw .countersExhausted("token id") }
        let ttl = ttlSeconds ?? defaultTTL
        let issuedAt = openIMPlatformID == nil ? nowMs : nowMs.flooredToSecond
        var expiry: Int64?
        if ttl > 0 {
            let (sum, overflow) = issuedAt.addingReportingOverflow(ttl * 1000)
            guard !overflow else { throw .invalidTTL(ttl) }
            expiry = sum
        }
        let claims = TokenClaims(
            appKey: key, subject: subject, kind: kind, issuedAtMs: issuedAt, expiresAtMs: expiry, tokenID: serial,
            platformID: openIMPlatformID)
        let token =
            openIMPlatformID == nil
            ? TokenCodec.encode(claims, signingKey: signingKey) : OpenIMTokenCodec.encode(claims, signingKey: signingKey)
        apps[key]?.nextTokenSerial += 1
        changeLog.record(.tokenIssued(key))
        apps[key]?.issuedTokens.record(IssuedTokenRecord(claims: claims, token: token))
        return IssuedToken(token: token, expiresInSeconds: ttl, claims: claims)
    }
}

extension Int64 {
    /// Rounded down to a whole second of milliseconds.
    var flooredToSecond: Int64 { self - ((self % 1000) + 1000) % 1000 }
}
