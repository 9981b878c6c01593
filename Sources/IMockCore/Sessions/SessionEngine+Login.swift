extension SessionEngine {
    /// The checks, in order: app key, app service, username, token (expired, else invalid),
    /// token subject, user activated, DAU/MAU, device policy. A refusal is journalled and ends
    /// the connection with ``SessionEnd/Cause/loginRefused(_:_:)``.
    mutating func login(
        _ connection: ConnectionID, tag: RequestTag, request: LoginRequest, faults: CommandFaults, nowMs: Int64,
        directory: inout Directory
    ) -> [SessionOutput] {
        var appKeyForJournal: AppKey?
        do throws(SessionError) {
            guard let appKey = try? AppKey(parsing: request.appKey), let app = directory.apps[appKey] else {
                throw .unknownAppKey
            }
            appKeyForJournal = appKey
            return try acceptLogin(
                connection, tag: tag, request: request, app: app, faults: faults, nowMs: nowMs, directory: &directory)
        } catch {
            return refuseLogin(connection, tag: tag, error, app: appKeyForJournal, user: request.user, nowMs: nowMs)
        }
    }

    private mutating func acceptLogin(
        _ connection: ConnectionID, tag: RequestTag, request: LoginRequest, app: App, faults: CommandFaults,
        nowMs: Int64, directory: inout Directory
    ) throws(SessionError) -> [SessionOutput] {
        guard app.settings.serviceEnabled else { throw .serviceDisabled }
        guard let key = UserKey(app: app.key, rawUser: request.user) else { throw .invalidUsername }
        let claims = try Self.verifiedClaims(request.token, of: key, directory: directory, nowMs: nowMs)
        // An OpenIM token logs in on its own platform only (the gateway's 1502).
        if let bound = claims.platformID, bound != request.device.platform.openIMPlatformID { throw .tokenForAnotherUser }
        guard let user = app.users[key.user], user.activated else { throw .userDeactivated }
        let active = activeUsers[app.key] ?? []
        if let limit = app.settings.activeUserLimit, !active.contains(key.user), active.count >= limit {
            throw .activeUserLimitReached
        }
        let device: LoginDevice
        do {
            device = try request.device.loginDevice(loginTimeMs: nowMs, tokenID: claims.tokenID)
        } catch {
            throw .invalidDevice
        }
        let attempt = LoginAttempt(
            device: device, isAutoLogin: request.autoLogin, lastLoginDevice: users[key]?.lastLoginDevice)
        let decision: LoginDecision
        do {
            decision = try decider.decide(attempt, liveSessions: users[key]?.live ?? LiveSessions(), app: app)
        } catch {
            throw .platformNotAllowed
        }
        let (resource, replacing, kicks): (String, SessionID?, [Kick])
        switch decision {
        case .refuse(let code): throw .deviceRefused(code)
        case .accept(let chosen, let replaced): (resource, replacing, kicks) = (chosen, replaced, [])
        case .acceptAndKick(let chosen, let replaced, let victims):
            (resource, replacing, kicks) = (chosen, replaced, victims)
        }
        let sessionDevice: LoginDevice
        do {
            sessionDevice = try LoginDevice(
                platform: device.platform, name: device.name, uuid: device.uuid, resource: resource,
                extensionInfo: device.extensionInfo, loginTimeMs: nowMs, tokenID: claims.tokenID)
        } catch {
            throw .invalidResource
        }
        var outputs = displace(kicks: kicks, replacing: replacing, app: app.key, nowMs: nowMs, directory: &directory)
        let sessionID = SessionID(rawValue: nextSessionSerial)
        nextSessionSerial += 1
        let live = LiveSession(id: sessionID, device: sessionDevice)
        sessions[sessionID] = ConnectedSession(
            live: live, connection: connection, key: key, autoLogin: request.autoLogin,
            renewsTokenOverREST: request.renewsTokenOverREST, tokenWarningDelayMs: request.tokenWarningDelayMs, tokenID: claims.tokenID, tokenIssuedAtMs: claims.issuedAtMs, tokenExpiresAtMs: claims.expiresAtMs)
        users[key, default: UserSessions()].live.insert(live)
        users[key]?.lastLogin = live
        connections[connection] = .loggedIn(sessionID)
        if activeUsers[app.key, default: []].insert(key.user).inserted {
            changeLog.record(.userActive(app.key, username: key.user))
        }

        outputs.append(
            .reply(
                connection, tag, .loginAccepted(resource: resource, tokenExpiresAt: claims.expiresAtMs, serverTime: nowMs)))
        if let session = sessions[sessionID] {
            outputs.append(
                journal(
                    session,
                    .loginAccepted(tag, resource: resource, tokenExpiresAt: claims.expiresAtMs, serverTime: nowMs), nowMs))
        }
        outputs += scheduleTokenTimers(sessionID, nowMs: nowMs)
        outputs += offlineSync(connection, key: key)
        outputs += dataSync(connection, types: request.sync, failing: faults.failingSyncTypes)
        return outputs
    }

    /// Executes the policy's kicks (revoking the kicked token when the signal says so), then
    /// ends the replaced session of the same device silently.
    private mutating func displace(
        kicks: [Kick], replacing: SessionID?, app: AppKey, nowMs: Int64, directory: inout Directory
    ) -> [SessionOutput] {
        var outputs: [SessionOutput] = []
        for kick in kicks {
            if kick.signal.invalidatesToken, let victim = sessions[kick.session] {
                directory.revokeToken(id: victim.tokenID, in: app, reason: .kicked)
            }
            let by = KickedBy(deviceName: kick.by.deviceName, extensionInfo: kick.by.extensionInfo)
            outputs += kickSession(
                kick.session, code: kick.signal.numericCode, reason: "logged in on another device", by: by,
                nowMs: nowMs)
        }
        if let replacing {
            outputs += endSession(replacing, .replaced, reason: "replaced by a new connection of the same device")
        }
        return outputs
    }

    /// Verifies a user token for `key`: expired, malformed, invalid (bad signature, another
    /// app's), revoked, kicked, or valid but for another user (or an app token).
    static func verifiedClaims(_ token: String, of key: UserKey, directory: Directory, nowMs: Int64)
        throws(SessionError) -> TokenClaims
    {
        let claims: TokenClaims
        do {
            claims = try directory.verifyToken(token, for: key.app, nowMs: nowMs)
        } catch {
            switch error {
            case .expired: throw .tokenExpired
            case .malformed: throw .tokenMalformed
            case .badSignature, .otherApp: throw .invalidToken
            case .revoked: throw .tokenRevoked
            case .kicked: throw .tokenKicked
            }
        }
        guard claims.kind == .user, claims.subject == key.user else { throw .tokenForAnotherUser }
        return claims
    }

    private mutating func refuseLogin(
        _ connection: ConnectionID, tag: RequestTag, _ error: SessionError, app: AppKey?, user: String, nowMs: Int64
    ) -> [SessionOutput] {
        connections[connection] = .closing
        let name = user.utf8.count <= UserFields.maximumUsernameLength ? user : nil
        let subject = JournalSubject(connection: connection, app: app, user: name)
        return [
            .journal(JournalEntry(atMs: nowMs, subject: subject, event: .loginRefused(tag, error))),
            .end(connection, SessionEnd(cause: .loginRefused(tag, error), reason: error.message, subject: subject)),
        ]
    }
}
