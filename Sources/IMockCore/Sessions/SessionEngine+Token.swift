extension SessionEngine {
    /// A timer the engine scheduled is due.
    ///
    /// `tokenWillExpire` pushes the warning; `tokenExpiry` ends the session as expired. Timers of
    /// sessions that ended or were renewed are ignored.
    public mutating func timerFired(_ timer: TimerToken, nowMs: Int64, directory: inout Directory) -> [SessionOutput] {
        guard case .loggedIn(let sessionID) = connections[timer.connection], var session = sessions[sessionID] else {
            return []
        }
        switch timer.kind {
        case .tokenWillExpire:
            guard session.willExpireTimer == timer, let expiresAt = session.tokenExpiresAtMs else { return [] }
            session.willExpireTimer = nil
            sessions[sessionID] = session
            return [
                .push(session.connection, .tokenWillExpire(expiresAt: expiresAt)),
                journal(session, .tokenWillExpire(expiresAt: expiresAt), nowMs),
            ]
        case .tokenExpiry:
            guard session.expiryTimer == timer else { return [] }
            // The timer that fired is no longer pending: only the others are cancelled.
            session.expiryTimer = nil
            sessions[sessionID] = session
            return expireSession(sessionID, nowMs: nowMs)
        }
    }

    /// Expires the tokens of `user`'s live sessions now, ahead of their timers (the control
    /// API's "expire now"): each ends as expired, earliest login first.
    public mutating func expireTokens(app: AppKey, user: String, nowMs: Int64) -> [SessionOutput] {
        guard let key = UserKey(app: app, rawUser: user) else { return [] }
        return (sessionsByUser[key]?.all ?? []).flatMap { expireSession($0.id, nowMs: nowMs) }
    }

    /// Ends the session as expired (journalled); cancels its remaining token timers.
    private mutating func expireSession(_ sessionID: SessionID, nowMs: Int64) -> [SessionOutput] {
        guard var session = sessions[sessionID] else { return [] }
        var outputs: [SessionOutput] = [session.willExpireTimer, session.expiryTimer].compactMap { $0 }.map { .cancel($0) }
        session.willExpireTimer = nil
        session.expiryTimer = nil
        sessions[sessionID] = session
        outputs.append(journal(session, .tokenExpired, nowMs))
        outputs += endSession(sessionID, .tokenExpired, reason: "the token has expired")
        return outputs
    }

    /// Schedules `token.willExpire` at the configured share of the token's life (at once when
    /// that is already past) and the expiry at `expiresAt`. Nothing for tokens that never expire.
    mutating func scheduleTokenTimers(_ sessionID: SessionID, nowMs: Int64) -> [SessionOutput] {
        guard var session = sessions[sessionID], let expiresAt = session.tokenExpiresAtMs else { return [] }
        var outputs: [SessionOutput] = []
        let life = max(expiresAt - session.tokenIssuedAtMs, 0)
        let warnAt = max(session.tokenIssuedAtMs + life / 100 * Int64(configuration.tokenWarningPercent)
            + life % 100 * Int64(configuration.tokenWarningPercent) / 100, nowMs)
        if warnAt < expiresAt {
            let timer = makeTimer(session.connection, .tokenWillExpire)
            session.willExpireTimer = timer
            outputs.append(.schedule(timer, atMs: warnAt))
        }
        let expiry = makeTimer(session.connection, .tokenExpiry)
        session.expiryTimer = expiry
        outputs.append(.schedule(expiry, atMs: expiresAt))
        sessions[sessionID] = session
        return outputs
    }

    /// `renewToken`: a valid token of the same user and app replaces the session's token and
    /// moves both timers; any other token is refused (field `token`) and changes nothing.
    mutating func renewToken(
        _ session: ConnectedSession, tag: RequestTag, token: String, nowMs: Int64, directory: Directory
    )
        -> [SessionOutput]
    {
        let claims: TokenClaims
        do {
            claims = try Self.verifiedClaims(token, of: session.key, directory: directory, nowMs: nowMs)
        } catch {
            return [refuse(session.connection, tag, error, field: "token")]
        }
        var renewed = session
        var outputs: [SessionOutput] = session.pendingTimers.map { .cancel($0) }
        renewed.willExpireTimer = nil
        renewed.expiryTimer = nil
        renewed.tokenID = claims.tokenID
        renewed.tokenIssuedAtMs = claims.issuedAtMs
        renewed.tokenExpiresAtMs = claims.expiresAtMs
        sessions[session.id] = renewed
        outputs += scheduleTokenTimers(session.id, nowMs: nowMs)
        outputs.append(.reply(session.connection, tag, .tokenRenewed(tokenExpiresAt: claims.expiresAtMs)))
        return outputs
    }

    /// A user token was presented over REST by an SDK that renews that way (the Easemob Web
    /// SDK's `renewToken`): every live session of its user that logged in with
    /// ``LoginRequest/renewsTokenOverREST`` and whose token expires sooner takes it, as a
    /// `renewToken` on its connection would (the reply goes to the session's dialect, tagged
    /// ``restRenewalTag``). A token that does not verify for the user changes nothing.
    public mutating func tokenPresentedOverREST(
        app: AppKey, user: String, token: String, nowMs: Int64, directory: Directory
    ) -> [SessionOutput] {
        guard let key = UserKey(app: app, rawUser: user),
            let claims = try? Self.verifiedClaims(token, of: key, directory: directory, nowMs: nowMs)
        else { return [] }
        return (sessionsByUser[key]?.all ?? []).map(\.id).flatMap { id -> [SessionOutput] in
            guard let session = sessions[id], session.renewsTokenOverREST else { return [] }
            let sooner: Bool =
                switch (session.tokenExpiresAtMs, claims.expiresAtMs) {
                case (nil, _): false
                case (_, nil): true
                case (let current?, let new?): new > current
                }
            guard sooner else { return [] }
            return renewToken(session, tag: Self.restRenewalTag, token: token, nowMs: nowMs, directory: directory)
        }
    }

    /// The request tag of a renewal made over REST (``tokenPresentedOverREST(app:user:token:nowMs:directory:)``).
    public static let restRenewalTag = RequestTag("rest-renewal")

    private mutating func makeTimer(_ connection: ConnectionID, _ kind: TimerToken.Kind) -> TimerToken {
        let timer = TimerToken(serial: nextTimerSerial, connection: connection, kind: kind)
        nextTimerSerial += 1
        return timer
    }
}
