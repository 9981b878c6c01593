extension SessionEngine {
    /// Why a login is refused: the `login.error` code and message.
    struct LoginRefusal: Error {
        let code: Int
        let message: String

        init(_ code: KickCode, _ message: String) {
            self.code = code.rawValue
            self.message = message
        }

        init(_ code: ProtocolErrorCode, _ message: String) {
            self.code = code.rawValue
            self.message = message
        }
    }

    /// The checks, in order: app key (100), app service (305), username (101), token (108 when
    /// expired, 104 otherwise), token subject (202), user activated (305), DAU/MAU (8), device
    /// policy (213/214/220 or 110). A refusal sends `login.error` and closes with `4000 + code`.
    mutating func login(
        _ connection: ConnectionID, id: String, request: LoginRequest, nowMs: Int64, directory: inout Directory
    ) -> [SessionEffect] {
        var appKeyForJournal: AppKey?
        do throws(LoginRefusal) {
            guard let appKey = try? AppKey(parsing: request.appKey), let app = directory.apps[appKey] else {
                throw LoginRefusal(.invalidAppKey, "unknown app key")
            }
            appKeyForJournal = appKey
            return try acceptLogin(
                connection, id: id, request: request, app: app, nowMs: nowMs, directory: &directory)
        } catch {
            return refuseLogin(connection, id: id, error, app: appKeyForJournal, user: request.user, nowMs: nowMs)
        }
    }

    private mutating func acceptLogin(
        _ connection: ConnectionID, id: String, request: LoginRequest, app: App, nowMs: Int64,
        directory: inout Directory
    ) throws(LoginRefusal) -> [SessionEffect] {
        guard app.settings.serviceEnabled else {
            throw LoginRefusal(KickCode.serviceForbidden, "the app service is disabled")
        }
        guard let key = UserKey(app: app.key, rawUser: request.user) else {
            throw LoginRefusal(ProtocolErrorCode.invalidUsername, "invalid username")
        }
        let claims = try Self.verifiedClaims(request.token, of: key, directory: directory, nowMs: nowMs)
        guard let user = app.users[key.user], user.activated else {
            throw LoginRefusal(KickCode.serviceForbidden, "the user is deactivated")
        }
        let active = activeUsers[app.key] ?? []
        if let limit = app.settings.activeUserLimit, !active.contains(key.user), active.count >= limit {
            throw LoginRefusal(KickCode.activeUserLimitReached, "the app's active user limit is reached")
        }
        let device: LoginDevice
        do {
            device = try request.device.loginDevice(loginTimeMs: nowMs, tokenID: claims.tokenID)
        } catch {
            throw LoginRefusal(ProtocolErrorCode.invalidParam, "invalid device")
        }
        let attempt = LoginAttempt(
            device: device, isAutoLogin: request.autoLogin, lastLoginDevice: lastLoginDevice[key])
        let live = (sessionsByUser[key] ?? []).compactMap { sessions[$0]?.liveSession }
        let decision: LoginDecision
        do {
            decision = try decider.decide(attempt, liveSessions: live, app: app)
        } catch {
            throw LoginRefusal(ProtocolErrorCode.invalidParam, "the device platform is not allowed by the app's policy")
        }
        let (resource, replacing, kicks): (String, SessionID?, [Kick])
        switch decision {
        case .refuse(let code): throw LoginRefusal(code, Self.refusalMessage(code))
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
            throw LoginRefusal(ProtocolErrorCode.invalidParam, "invalid resource")
        }
        var effects = displace(kicks: kicks, replacing: replacing, app: app.key, nowMs: nowMs, directory: &directory)
        let sessionID = SessionID(rawValue: nextSessionSerial)
        nextSessionSerial += 1
        sessions[sessionID] = ConnectedSession(
            id: sessionID, connection: connection, key: key, device: sessionDevice, autoLogin: request.autoLogin,
            tokenID: claims.tokenID, tokenIssuedAtMs: claims.issuedAtMs, tokenExpiresAtMs: claims.expiresAtMs)
        sessionsByUser[key, default: []].append(sessionID)
        connections[connection] = .loggedIn(sessionID)
        activeUsers[app.key, default: []].insert(key.user)
        lastLoginDevice[key] = sessionDevice.identity

        let accepted = ServerFrame.loginOK(
            id: id, resource: resource, tokenExpiresAt: claims.expiresAtMs, serverTime: nowMs)
        effects.append(.send(connection, accepted))
        if let session = sessions[sessionID] { effects.append(journal(session, .frame(accepted), nowMs)) }
        effects += scheduleTokenTimers(sessionID, nowMs: nowMs)
        effects += offlineSync(connection, key: key)
        effects += dataSync(connection, types: request.sync, app: app.key)
        return effects
    }

    /// Executes the policy's kicks (revoking the kicked token when the signal says so), then
    /// closes the replaced session of the same device silently with 1000.
    private mutating func displace(
        kicks: [Kick], replacing: SessionID?, app: AppKey, nowMs: Int64, directory: inout Directory
    ) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        for kick in kicks {
            if kick.signal.invalidatesToken, let victim = sessions[kick.session] {
                directory.revokeToken(id: victim.tokenID, in: app, reason: .kicked)
            }
            let by = KickedBy(deviceName: kick.by.deviceName, extensionInfo: kick.by.extensionInfo)
            effects += kickSession(
                kick.session, code: kick.signal.numericCode, reason: "logged in on another device", by: by,
                nowMs: nowMs)
        }
        if let replacing {
            effects += closeSession(
                replacing, code: CloseCode.normal, reason: "replaced by a new connection of the same device",
                nowMs: nowMs)
        }
        return effects
    }

    /// Verifies a user token for `key`: 108 expired, 104 malformed/foreign/revoked, 202 valid but
    /// for another user (or an app token).
    static func verifiedClaims(_ token: String, of key: UserKey, directory: Directory, nowMs: Int64)
        throws(LoginRefusal) -> TokenClaims
    {
        let claims: TokenClaims
        do {
            claims = try directory.verifyToken(token, for: key.app, nowMs: nowMs)
        } catch {
            switch error {
            case .expired: throw LoginRefusal(KickCode.tokenExpired, "the token has expired")
            case .malformed, .badSignature, .otherApp, .revoked:
                throw LoginRefusal(KickCode.invalidToken, "invalid token")
            }
        }
        guard claims.kind == .user, claims.subject == key.user else {
            throw LoginRefusal(KickCode.authenticationFailed, "the token does not authenticate this user")
        }
        return claims
    }

    private mutating func refuseLogin(
        _ connection: ConnectionID, id: String, _ refusal: LoginRefusal, app: AppKey?, user: String, nowMs: Int64
    ) -> [SessionEffect] {
        connections[connection] = .closing
        let frame = ServerFrame.loginError(id: id, code: refusal.code, message: refusal.message)
        let closeCode = CloseCode.forCode(refusal.code)
        let reason = Self.closeReason(refusal.message)
        let name = user.utf8.count <= UserFields.maximumUsernameLength ? user : nil
        func entry(_ event: JournalEvent) -> SessionEffect {
            .journal(JournalEntry(atMs: nowMs, connection: connection, app: app, user: name, resource: nil, event: event))
        }
        return [
            .send(connection, frame), entry(.frame(frame)),
            .close(connection, closeCode: closeCode, reason: reason), entry(.closed(code: closeCode, reason: reason)),
        ]
    }

    static func refusalMessage(_ code: KickCode) -> String {
        switch code {
        case .boundToAnotherDevice: "the account is bound to another device"
        case .tooManyDevices: "too many devices are logged in"
        case .deviceChanged: "the device differs from the last one"
        default: "login refused"
        }
    }
}
