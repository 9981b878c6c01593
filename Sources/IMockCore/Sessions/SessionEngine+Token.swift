extension SessionEngine {
    /// The shell's wake-up (``SessionOutput/wake(atMs:)``) came: fires every token timer due
    /// by `nowMs`, earliest first (equal deadlines in scheduling order), and asks for the next
    /// wake-up when timers remain. `tokenWillExpire` pushes the warning; `tokenExpiry` ends the
    /// session as expired.
    ///
    /// On a virtual clock the shell's one wake-up stands at the earliest deadline, so a jump
    /// over many deadlines fires them one deadline at a time, each with the clock at it.
    public mutating func fireDueTimers(nowMs: Int64) -> [SessionOutput] {
        var outputs: [SessionOutput] = []
        while let due = tokenTimers.popFirst(dueBy: nowMs) {
            guard var session = sessions[due.session], session.token.timerGeneration == due.generation else {
                tokenTimers.poppedStale()
                continue
            }
            if due.isExpiry {
                session.token.timerGeneration = 0
                sessions[due.session] = session
                outputs += expireSession(due.session, nowMs: nowMs)
            } else if let expiresAt = session.tokenExpiresAtMs {
                // The expiry takes the warning's place, in the order it was given with it.
                tokenTimers.push(TokenTimerQueue.Entry(atMs: expiresAt, order: due.order | 1, session: due.session))
                outputs.append(.push(session.connection, .tokenWillExpire(expiresAt: expiresAt)))
                outputs.append(journal(session, .tokenWillExpire(expiresAt: expiresAt), nowMs))
            }
        }
        if let next = tokenTimers.nextDeadline { outputs.append(.wake(atMs: next)) }
        return outputs
    }

    /// The sessions with a token timer pending (one each: the warning, then the expiry).
    public var pendingTokenTimerCount: Int { tokenTimers.count }

    /// The earliest pending token timer's deadline (perhaps of a timer since cancelled).
    public var nextTokenTimerDeadlineMs: Int64? { tokenTimers.nextDeadline }

    /// Expires the tokens of `user`'s live sessions now, ahead of their timers (the control
    /// API's "expire now"): each ends as expired, earliest login first.
    public mutating func expireTokens(app: AppKey, user: String, nowMs: Int64) -> [SessionOutput] {
        guard let key = UserKey(app: app, rawUser: user) else { return [] }
        return (users[key]?.live.all ?? []).flatMap { expireSession($0.id, nowMs: nowMs) }
    }

    /// Ends the session as expired (journalled); its token timers leave the queue with it.
    private mutating func expireSession(_ sessionID: SessionID, nowMs: Int64) -> [SessionOutput] {
        guard let session = sessions[sessionID] else { return [] }
        var outputs = [journal(session, .tokenExpired, nowMs)]
        outputs += endSession(sessionID, .tokenExpired, reason: "the token has expired")
        return outputs
    }

    /// Schedules `token.willExpire` at the configured share of the token's life — later by the
    /// session's warning delay, still before the expiry (``LoginRequest/tokenWarningDelayMs``);
    /// at once when that is already past — and the expiry at `expiresAt`, in the engine's
    /// queue; asks the shell for an earlier wake-up when one of them is the new earliest.
    /// Nothing for tokens that never expire.
    mutating func scheduleTokenTimers(_ sessionID: SessionID, nowMs: Int64) -> [SessionOutput] {
        guard var session = sessions[sessionID], let expiresAt = session.tokenExpiresAtMs else { return [] }
        let earliest = tokenTimers.nextDeadline
        let deadline = Self.tokenWarningDeadline(
            issuedAtMs: session.tokenIssuedAtMs, expiresAtMs: expiresAt, percent: configuration.tokenWarningPercent,
            delayMs: session.tokenWarningDelayMs)
        let warnAt = max(deadline, nowMs)
        // The warning first (its expiry follows it into the queue when it fired), or the
        // expiry alone when the warning would not come before it.
        let generation = tokenTimers.nextGeneration()
        let first =
            warnAt < expiresAt
            ? TokenTimerQueue.Entry(atMs: warnAt, order: generation << 1, session: sessionID)
            : TokenTimerQueue.Entry(atMs: expiresAt, order: generation << 1 | 1, session: sessionID)
        tokenTimers.push(first)
        session.token.timerGeneration = generation
        sessions[sessionID] = session
        return earliest.map { first.atMs < $0 } ?? true ? [.wake(atMs: first.atMs)] : []
    }

    /// When a token's warning is due: `percent` of its life after its issue, plus `delayMs` when
    /// that still comes before the expiry (else a millisecond before it). The harness stops its
    /// virtual clock at these moments (with and without the msync delay).
    public static func tokenWarningDeadline(issuedAtMs: Int64, expiresAtMs: Int64, percent: Int, delayMs: Int64 = 0) -> Int64 {
        let life = max(expiresAtMs - issuedAtMs, 0)
        let share = issuedAtMs + life / 100 * Int64(percent) + life % 100 * Int64(percent) / 100
        guard delayMs > 0, share < expiresAtMs else { return share }
        return min(share + delayMs, expiresAtMs - 1)
    }

    /// Notes that `session`'s pending token timer (if it has one) is stale, once the table no
    /// longer holds it with that generation (it ended, or its token was replaced).
    mutating func cancelTokenTimers(of session: ConnectedSession) {
        guard session.token.timerGeneration != 0 else { return }
        let table = sessions
        tokenTimers.noteStale { table[$0.session]?.token.timerGeneration == $0.generation }
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
        var outputs: [SessionOutput] = []
        renewed.token = ConnectedSession.Token(id: claims.tokenID, issuedAtMs: claims.issuedAtMs, expiresAtMs: claims.expiresAtMs)
        sessions[session.id] = renewed
        cancelTokenTimers(of: session)
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
        return (users[key]?.live.all ?? []).map(\.id).flatMap { id -> [SessionOutput] in
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
}
