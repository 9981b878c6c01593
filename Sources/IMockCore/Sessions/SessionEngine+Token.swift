extension SessionEngine {
    /// A timer the engine scheduled is due.
    ///
    /// `tokenWillExpire` sends `token.willExpire`; `tokenExpiry` sends `token.expired` and closes
    /// with 4108. Timers of sessions that ended or were renewed are ignored.
    public mutating func timerFired(_ timer: TimerToken, nowMs: Int64, directory: inout Directory) -> [SessionEffect] {
        guard case .loggedIn(let sessionID) = connections[timer.connection], var session = sessions[sessionID] else {
            return []
        }
        switch timer.kind {
        case .tokenWillExpire:
            guard session.willExpireTimer == timer, let expiresAt = session.tokenExpiresAtMs else { return [] }
            session.willExpireTimer = nil
            sessions[sessionID] = session
            let frame = ServerFrame.tokenWillExpire(expiresAt: expiresAt)
            return [.send(session.connection, frame), journal(session, .frame(frame), nowMs)]
        case .tokenExpiry:
            guard session.expiryTimer == timer else { return [] }
            return expireSession(sessionID, nowMs: nowMs)
        }
    }

    /// Expires the tokens of `user`'s live sessions now, ahead of their timers (the control
    /// API's "expire now"): each gets `token.expired`, then close 4108, earliest login first.
    public mutating func expireTokens(app: AppKey, user: String, nowMs: Int64) -> [SessionEffect] {
        guard let key = UserKey(app: app, rawUser: user) else { return [] }
        return (sessionsByUser[key] ?? []).flatMap { expireSession($0, nowMs: nowMs) }
    }

    /// `token.expired` then close 4108; cancels the session's remaining token timers.
    private mutating func expireSession(_ sessionID: SessionID, nowMs: Int64) -> [SessionEffect] {
        guard var session = sessions[sessionID] else { return [] }
        var effects: [SessionEffect] = [session.willExpireTimer, session.expiryTimer].compactMap { $0 }.map { .cancel($0) }
        session.willExpireTimer = nil
        session.expiryTimer = nil
        sessions[sessionID] = session
        let frame = ServerFrame.tokenExpired
        effects += [.send(session.connection, frame), journal(session, .frame(frame), nowMs)]
        effects += closeSession(
            sessionID, code: CloseCode.forCode(KickCode.tokenExpired.rawValue), reason: "the token has expired",
            nowMs: nowMs)
        return effects
    }

    /// Schedules `token.willExpire` at the configured share of the token's life (at once when
    /// that is already past) and the expiry at `expiresAt`. Nothing for tokens that never expire.
    mutating func scheduleTokenTimers(_ sessionID: SessionID, nowMs: Int64) -> [SessionEffect] {
        guard var session = sessions[sessionID], let expiresAt = session.tokenExpiresAtMs else { return [] }
        var effects: [SessionEffect] = []
        let life = max(expiresAt - session.tokenIssuedAtMs, 0)
        let warnAt = max(session.tokenIssuedAtMs + life / 100 * Int64(configuration.tokenWarningPercent)
            + life % 100 * Int64(configuration.tokenWarningPercent) / 100, nowMs)
        if warnAt < expiresAt {
            let timer = makeTimer(session.connection, .tokenWillExpire)
            session.willExpireTimer = timer
            effects.append(.schedule(timer, atMs: warnAt))
        }
        let expiry = makeTimer(session.connection, .tokenExpiry)
        session.expiryTimer = expiry
        effects.append(.schedule(expiry, atMs: expiresAt))
        sessions[sessionID] = session
        return effects
    }

    /// `renewToken`: a valid token of the same user and app replaces the session's token and
    /// moves both timers; any other token gets an `error` (104, 108 or 202) and changes nothing.
    mutating func renewToken(_ session: ConnectedSession, id: String, token: String, nowMs: Int64, directory: Directory)
        -> [SessionEffect]
    {
        let claims: TokenClaims
        do {
            claims = try Self.verifiedClaims(token, of: session.key, directory: directory, nowMs: nowMs)
        } catch {
            return [.send(session.connection, .error(id: id, code: error.code, message: error.message, field: "token"))]
        }
        var renewed = session
        var effects: [SessionEffect] = session.pendingTimers.map { .cancel($0) }
        renewed.willExpireTimer = nil
        renewed.expiryTimer = nil
        renewed.tokenID = claims.tokenID
        renewed.tokenIssuedAtMs = claims.issuedAtMs
        renewed.tokenExpiresAtMs = claims.expiresAtMs
        sessions[session.id] = renewed
        effects += scheduleTokenTimers(session.id, nowMs: nowMs)
        effects.append(.send(session.connection, .renewTokenOK(id: id, tokenExpiresAt: claims.expiresAtMs)))
        return effects
    }

    private mutating func makeTimer(_ connection: ConnectionID, _ kind: TimerToken.Kind) -> TimerToken {
        let timer = TimerToken(serial: nextTimerSerial, connection: connection, kind: kind)
        nextTimerSerial += 1
        return timer
    }
}
