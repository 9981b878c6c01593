import IMockCore

extension ClientStateMachine {
    mutating func socketOpened(generation: UInt64) {
        guard generation == liveSocket else { return }
        switch phase {
        case .loggingIn(var attempt) where attempt.step == .openingSocket:
            let id = nextRequestID()
            attempt.step = .awaitingReply(id: id)
            phase = .loggingIn(attempt)
            sendFrame(loginFrame(id: id, user: attempt.user, token: attempt.token, autoLogin: false))
        case .loggedIn(var session):
            guard case .opening(let number) = session.link else { return }
            let id = nextRequestID()
            session.link = .awaitingReply(attempt: number, id: id)
            phase = .loggedIn(session)
            // An offline login's first attempt is the app's login; later ones are reconnects.
            let auto = number > 0 || session.everConnected
            sendFrame(loginFrame(id: id, user: session.user, token: session.token, autoLogin: auto))
        default:
            return
        }
    }

    /// A close code `4000 + code` (4999: OpenIM 2002) carries the kick or refusal code.
    static func codeOfClose(_ closeCode: UInt16?) -> Int? {
        guard let closeCode, (4000...4999).contains(closeCode) else { return nil }
        return closeCode == 4999 ? OpenIMKickCode.kickOnlineMessage.rawValue : Int(closeCode) - 4000
    }

    /// Kick codes that are token problems, not kicks (C8, O6).
    static func endReason(code: Int, message: String, by: KickedBy?) -> SessionEndReason {
        switch code {
        case KickCode.tokenExpired.rawValue: .tokenExpired
        case KickCode.invalidToken.rawValue: .tokenInvalid(ClientError(code: code, message: message))
        default: .kicked(code: code, by: by)
        }
    }

    mutating func socketClosed(generation: UInt64, code: UInt16?, reason: String) {
        guard generation == liveSocket else { return }
        liveSocket = nil
        let fatalCode = Self.codeOfClose(code)
        switch phase {
        case .loggedOut:
            return
        case .loggingIn:
            let message = reason.isEmpty ? "server not reachable" : reason
            failLogin(ClientError(code: fatalCode ?? rules.serverNotReachable, message: message))
        case .loggedIn(var session):
            if let pending = session.pendingLogout {
                session.pendingLogout = nil
                phase = .loggedIn(session)
                guard pending.unbindDeviceToken else { return finishLogout() }
                emit(
                    .logoutCompleted(
                        error: ClientError(code: rules.notConnected, message: "connection lost during logout"),
                        loggedOut: false))
            }
            if let fatalCode {
                // C9: a kick or token error never reconnects, even without its frame.
                if session.link != .connected {
                    emit(.connectionAttemptFailed(ClientError(code: fatalCode, message: reason)))
                }
                endSession(Self.endReason(code: fatalCode, message: reason, by: nil))
            } else {
                connectionDropped(reason: reason.isEmpty ? "connection lost" : reason)
            }
        }
    }

    /// C2, C12, Z2: a recoverable drop; the client reconnects by itself.
    mutating func connectionDropped(reason: String) {
        guard case .loggedIn(var session) = phase else { return }
        let wasConnected = session.link == .connected
        let nextAttempt = session.link.attempt + 1
        output.append(.cancelTimer(.keepAlive))
        session.inOfflineSync = false  // C10: the finish may be missing
        let unfinished = session.openDataSyncs
        session.openDataSyncs = []
        session.pendingRenewals = [:]
        let sends = session.pendingSends
        session.pendingSends = [:]
        phase = .loggedIn(session)
        let lost = ClientError(code: rules.notConnected, message: reason)
        for type in unfinished { emit(.dataSyncFinished(type, error: lost)) }  // C11
        for localID in sends.values.sorted() { emit(.sendCompleted(localID: localID, messageId: nil, error: lost)) }
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
        let delay = options.reconnect.delayMs(attempt: attempt, unit: random.nextUnit())
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
            openSocket(attempt: number)
        case (.keepAlive, .loggedIn(let session)) where session.link == .connected:
            sendFrame(.ping(id: nil))
            output.append(.scheduleTimer(.keepAlive, afterMs: options.keepAliveIntervalMs))
        default:
            return
        }
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

    /// C6, C8, C9, O6, O7, Z2–Z4: the session is over; logged out, no reconnect.
    mutating func endSession(_ reason: SessionEndReason) {
        guard case .loggedIn(let session) = phase else { return }
        let wasConnected = session.link == .connected
        closeLiveSocket()
        stopSessionTimers()
        output.append(.closeDatabase(epoch: loginEpoch))
        phase = .loggedOut
        lastEndReason = reason
        let ended = ClientError(code: rules.notLoggedIn, message: "session ended")
        for type in session.openDataSyncs { emit(.dataSyncFinished(type, error: ended)) }
        for localID in session.pendingSends.values.sorted() {
            emit(.sendCompleted(localID: localID, messageId: nil, error: ended))
        }
        emit(.sessionEnded(reason, wasConnected: wasConnected))
    }

    mutating func stopSessionTimers() {
        output.append(.cancelTimer(.keepAlive))
        output.append(.cancelTimer(.reconnect))
        output.append(.cancelTimer(.loginTimeout))
    }
}
