import IMockCommon
import IMockCore

extension ClientStateMachine {
    mutating func socketOpened(generation: UInt64) {
        guard generation == liveSocket else { return }
        switch phase {
        case .loggingIn(var attempt) where attempt.step == .openingSocket:
            let id = nextRequestID()
            attempt.step = .awaitingReply(id: id)
            phase = .loggingIn(attempt)
            sendRequest(loginRequest(id: id, user: attempt.user, token: attempt.token, autoLogin: false))
        case .loggedIn(var session):
            guard case .opening(let number) = session.link else { return }
            let id = nextRequestID()
            session.link = .awaitingReply(attempt: number, id: id)
            phase = .loggedIn(session)
            // An offline login's first attempt is the app's login; later ones are reconnects.
            let auto = number > 0 || session.everConnected
            sendRequest(loginRequest(id: id, user: session.user, token: session.token, autoLogin: auto))
        default:
            return
        }
    }

    /// Kick codes that are token problems, not kicks (C8, O6).
    static func endReason(code: Int, message: String, by: KickedBy?) -> SessionEndReason {
        switch code {
        case KickCode.tokenExpired.rawValue: .tokenExpired
        case KickCode.invalidToken.rawValue: .tokenInvalid(ClientError(code: code, message: message))
        default: .kicked(code: code, by: by)
        }
    }

    mutating func socketClosed(generation: UInt64, sessionEndCode fatalCode: Int?, reason: String) {
        guard generation == liveSocket else { return }
        liveSocket = nil
        switch phase {
        case .loggedOut:
            return
        case .loggingIn:
            let message = reason.isEmpty ? "server not reachable" : reason
            failLogin(ClientError(code: fatalCode ?? rules.serverNotReachable, message: message))
        case .loggedIn(var session):
            if let fatalCode, options.plantedBug != .reconnectAfterKick(code: fatalCode) {
                // C9: a kick or token error never reconnects, even when only the close told it.
                if session.link != .connected {
                    emit(.connectionAttemptFailed(ClientError(code: fatalCode, message: reason)))
                }
                return endSession(Self.endReason(code: fatalCode, message: reason, by: nil))
            }
            if let pending = session.pendingLogout {
                session.pendingLogout = nil
                phase = .loggedIn(session)
                guard pending.unbindDeviceToken else { return finishLogout() }
                emit(
                    .logoutCompleted(
                        error: ClientError(code: rules.notConnected, message: "connection lost during logout"),
                        loggedOut: false))
            }
            connectionDropped(reason: reason.isEmpty ? "connection lost" : reason)
        }
    }

    /// C2, C12, Z2: a recoverable drop (or a failed automatic attempt); the client reconnects by
    /// itself. Waiting sends, renewals and data syncs fail with `code` (default: not connected).
    mutating func connectionDropped(reason: String, code: Int? = nil) {
        guard case .loggedIn(var session) = phase else { return }
        let wasConnected = session.link == .connected
        let nextAttempt = session.link.attempt + 1
        output.append(.cancelTimer(.keepAlive))
        output.append(.cancelTimer(.pongTimeout))
        if !wasConnected { output.append(.cancelTimer(.loginTimeout)) }
        let waiting = session
        session.inOfflineSync = false  // C10: the finish may be missing
        session.openDataSyncs = []
        session.pendingRenewals = [:]
        session.pendingSends = [:]
        session.awaitingPong = false
        phase = .loggedIn(session)
        let lost = ClientError(code: code ?? rules.notConnected, message: reason)
        failWaitingRequests(of: waiting, with: lost)
        if wasConnected { emit(.connectionLost) } else { emit(.connectionAttemptFailed(lost)) }
        scheduleReconnect(attempt: wasConnected ? 1 : nextAttempt)
    }

    mutating func scheduleReconnect(attempt: Int) {
        guard case .loggedIn(var session) = phase else { return }
        if let maxAttempts = options.reconnect.maxAttempts, attempt > maxAttempts {
            return endSession(.reconnectGaveUp)
        }
        session.link = .waiting(attempt: attempt)
        phase = .loggedIn(session)
        let jittered = options.reconnect.delayMs(attempt: attempt, unit: random.nextUnit())
        let waits = options.reconnect.waits
        let delay = reconnectsScheduled < waits.count ? waits[reconnectsScheduled] : jittered
        reconnectsScheduled += 1
        output.append(.scheduleTimer(.reconnect, afterMs: delay))
    }

    mutating func timerFired(_ timer: ClientTimer) {
        switch (timer, phase) {
        case (.loginTimeout, .loggingIn(let attempt)):
            let error = ClientError(code: rules.loginTimeout, message: "login timed out")
            if attempt.step == .openingDatabase { emit(.databaseOpened(user: attempt.user, error: error)) }  // C5
            failLogin(error)
        case (.reconnect, .loggedIn(var session)):
            guard case .waiting(let number) = session.link else { return }
            session.link = .opening(attempt: number)
            phase = .loggedIn(session)
            openAutomaticAttempt(number)
        case (.loginTimeout, .loggedIn(let session)):
            // An automatic attempt (reconnect, offline login) whose socket or login acceptance did not
            // come in time failed; the back-off goes on.
            switch session.link {
            case .opening, .awaitingReply:
                closeLiveSocket()
                connectionDropped(reason: "login timed out", code: rules.loginTimeout)
            case .connected, .waiting:
                return
            }
        case (.keepAlive, .loggedIn(var session)) where session.link == .connected:
            sendRequest(.ping(nil))
            output.append(.scheduleTimer(.keepAlive, afterMs: options.keepAliveIntervalMs))
            guard !session.awaitingPong else { return }
            session.awaitingPong = true
            phase = .loggedIn(session)
            output.append(.scheduleTimer(.pongTimeout, afterMs: options.pongTimeoutMs))
        case (.pongTimeout, .loggedIn(let session)) where session.link == .connected && session.awaitingPong:
            closeLiveSocket(code: Self.goingAwayCloseCode)
            connectionDropped(reason: "no pong within \(options.pongTimeoutMs) ms")
        default:
            return
        }
    }

    /// The WebSocket close code the client uses when it gives up on a silent connection.
    static let goingAwayCloseCode: UInt16 = 1001

    /// Opens the socket of automatic attempt `number` (0: an offline login's first) under the
    /// login timeout.
    mutating func openAutomaticAttempt(_ number: Int) {
        output.append(.scheduleTimer(.loginTimeout, afterMs: options.loginTimeoutMs))
        openSocket(attempt: number)
    }

    /// A login that will not succeed: every waiting call gets the error (O4 joined calls too).
    mutating func failLogin(_ error: ClientError) {
        guard case .loggingIn(let attempt) = phase else { return }
        closeLiveSocket()
        output.append(.cancelTimer(.loginTimeout))
        if attempt.step != .openingDatabase { emit(.connectionAttemptFailed(error)) }
        output.append(.closeDatabase(epoch: loginEpoch))
        phase = .loggedOut
        emit(.loginAborted(error))
        for _ in 0...attempt.joined { emit(.loginCompleted(user: attempt.user, error: error)) }
    }

    /// C6, C8, C9, O6, O7, Z2–Z4: the session is over; logged out, no reconnect. Waiting
    /// requests fail with the not-logged-in code; a waiting `logout` completes after the
    /// session's callbacks with the profile's ``ProfileRules/logoutCutBySessionEnd``.
    mutating func endSession(_ reason: SessionEndReason) {
        guard case .loggedIn(let session) = phase else { return }
        let wasConnected = session.link == .connected
        closeLiveSocket()
        stopSessionTimers()
        output.append(.closeDatabase(epoch: loginEpoch))
        phase = .loggedOut
        lastEndReason = reason
        failWaitingRequests(of: session, with: ClientError(code: rules.notLoggedIn, message: "session ended"))
        emit(.sessionEnded(reason, wasConnected: wasConnected))
        if session.pendingLogout != nil {
            let error = rules.logoutCutBySessionEnd.map {
                ClientError(code: $0, message: "already logged out: the session ended")
            }
            emit(.logoutCompleted(error: error, loggedOut: true))
        }
    }

    mutating func stopSessionTimers() {
        output.append(.cancelTimer(.keepAlive))
        output.append(.cancelTimer(.pongTimeout))
        output.append(.cancelTimer(.reconnect))
        output.append(.cancelTimer(.loginTimeout))
    }
}
