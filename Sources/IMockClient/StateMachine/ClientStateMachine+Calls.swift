import IMockCore

extension ClientStateMachine {
    /// E9, O4: refuse or join a second login; refuse another account while one is logged in.
    mutating func login(user: String, token: String, offline: Bool) {
        switch phase {
        case .loggingIn(var attempt):
            if case .join = rules.loginWhileLogging, attempt.user == user {
                attempt.joined += 1
                phase = .loggingIn(attempt)
                return
            }
            let code: Int
            if case .refuse(let refusal) = rules.loginWhileLogging, attempt.user == user {
                code = refusal
            } else {
                code = rules.alreadyLoggedInOtherUser
            }
            emit(.loginCompleted(user: user, error: ClientError(code: code, message: "a login is in progress")))
        case .loggedIn(let session):
            let same = session.user == user && session.pendingLogout == nil
            let error = ClientError(
                code: same ? rules.alreadyLoggedInSameUser : rules.alreadyLoggedInOtherUser,
                message: same ? "already logged in" : "another account is logged in; log out first")
            emit(.loginCompleted(user: user, error: error))
        case .loggedOut:
            guard !user.isEmpty else {
                emit(.loginCompleted(user: user, error: ClientError(code: 101, message: "invalid username")))
                return
            }
            if offline, user != lastOnlineUser {
                emit(
                    .loginCompleted(
                        user: user,
                        error: ClientError(code: rules.notLoggedIn, message: "offline login is for the last online user")))
                return
            }
            loginEpoch += 1
            lastEndReason = nil
            phase = .loggingIn(LoginAttempt(user: user, token: token, offline: offline))
            output.append(.scheduleTimer(.loginTimeout, afterMs: options.loginTimeoutMs))
            output.append(.openDatabase(user: user, epoch: loginEpoch))
        }
    }

    /// E2, C5: `onDatabaseOpened` (also on failure) before the connection; Z5: an offline login
    /// succeeds here.
    mutating func databaseOpened(epoch: UInt64, error: ClientError?) {
        guard epoch == loginEpoch, case .loggingIn(var attempt) = phase, attempt.step == .openingDatabase else {
            return
        }
        emit(.databaseOpened(user: attempt.user, error: error))
        if attempt.offline {
            output.append(.cancelTimer(.loginTimeout))
            phase = .loggedIn(
                Session(user: attempt.user, token: attempt.token, link: .opening(attempt: 0), everConnected: false))
            for _ in 0...attempt.joined { emit(.loginCompleted(user: attempt.user, error: nil)) }
            openSocket(attempt: 0)
            return
        }
        attempt.step = .openingSocket
        phase = .loggingIn(attempt)
        openSocket(attempt: 0)
    }

    /// E8: with a connection, ask the server; without one, unbinding fails and a plain logout is local.
    mutating func logout(unbindDeviceToken: Bool) {
        switch phase {
        case .loggedOut:
            emit(.logoutCompleted(error: nil, loggedOut: true))
        case .loggingIn:
            failLogin(ClientError(code: rules.notLoggedIn, message: "login cancelled by logout"))
            emit(.logoutCompleted(error: nil, loggedOut: true))
        case .loggedIn(var session):
            guard session.pendingLogout == nil else { return }  // the running logout answers
            if session.link == .connected {
                let id = nextRequestID()
                session.pendingLogout = PendingLogout(id: id, unbindDeviceToken: unbindDeviceToken)
                phase = .loggedIn(session)
                sendFrame(.logout(id: id, unbindDeviceToken: unbindDeviceToken))
            } else if unbindDeviceToken {
                emit(
                    .logoutCompleted(
                        error: ClientError(code: rules.notConnected, message: "unbinding the device token needs the server"),
                        loggedOut: false))
            } else {
                finishLogout()
            }
        }
    }

    /// Logged out on request: everything of the session stops (O8).
    mutating func finishLogout() {
        closeLiveSocket()
        stopSessionTimers()
        output.append(.closeDatabase(epoch: loginEpoch))
        phase = .loggedOut
        emit(.logoutCompleted(error: nil, loggedOut: true))
    }

    /// E5, Z4. Without a connection the new token is kept for the next reconnect.
    mutating func renewToken(_ token: String) {
        guard case .loggedIn(var session) = phase else {
            emit(.renewTokenCompleted(error: ClientError(code: rules.notLoggedIn, message: "not logged in")))
            return
        }
        if session.link == .connected {
            let id = nextRequestID()
            session.pendingRenewals[id] = token
            phase = .loggedIn(session)
            sendFrame(.renewToken(id: id, token: token))
        } else {
            session.token = token
            phase = .loggedIn(session)
            emit(.renewTokenCompleted(error: nil))
        }
    }

    /// Z3, Z4: after a kick or expiry calls fail with the profile's not-logged-in code (6000121).
    mutating func send(localID: String, to: String, text: String) {
        guard case .loggedIn(var session) = phase else {
            emit(
                .sendCompleted(
                    localID: localID, messageId: nil, error: ClientError(code: rules.notLoggedIn, message: "not logged in")))
            return
        }
        guard session.link == .connected else {
            emit(
                .sendCompleted(
                    localID: localID, messageId: nil, error: ClientError(code: rules.notConnected, message: "not connected")))
            return
        }
        let id = nextRequestID()
        session.pendingSends[id] = localID
        phase = .loggedIn(session)
        sendFrame(.send(id: id, to: to, text: text))
    }

    /// C10: an offline message is acked once stored, so it is delivered once.
    mutating func messageStored(messageId: String) {
        guard case .loggedIn(let session) = phase, session.link == .connected else { return }
        sendFrame(.ack(id: nextRequestID(), messageId: messageId))
    }
}
