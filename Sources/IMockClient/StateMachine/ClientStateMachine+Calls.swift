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
                        error: ClientError(
                            code: rules.offlineLoginNotLastUser, message: "offline login is for the last online user")))
                return
            }
            loginEpoch += 1
            lastEndReason = nil
            phase = .loggingIn(LoginInFlight(user: user, token: token, offline: offline))
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
            // The login timeout restarts for the background attempt (openAutomaticAttempt).
            phase = .loggedIn(
                Session(user: attempt.user, token: attempt.token, link: .opening(attempt: 0), everConnected: false))
            for _ in 0...attempt.joined { emit(.loginCompleted(user: attempt.user, error: nil)) }
            openAutomaticAttempt(0)
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
                sendRequest(.logout(RequestTag(id), unbindDeviceToken: unbindDeviceToken))
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

    /// Logged out on request: everything of the session stops (O8); requests still waiting for
    /// their reply fail with the not-logged-in code.
    mutating func finishLogout() {
        guard case .loggedIn(let session) = phase else { return }
        closeLiveSocket()
        stopSessionTimers()
        output.append(.closeDatabase(epoch: loginEpoch))
        phase = .loggedOut
        failWaitingRequests(of: session, with: ClientError(code: rules.notLoggedIn, message: "logged out"))
        emit(.logoutCompleted(error: nil, loggedOut: true))
    }

    /// E5, Z4. Without a connection the new token is kept for the next reconnect.
    mutating func renewToken(_ token: String, callID: String) {
        guard case .loggedIn(var session) = phase else {
            emit(
                .renewTokenCompleted(
                    callID: callID, error: ClientError(code: rules.notLoggedIn, message: "not logged in")))
            return
        }
        if session.link == .connected {
            let id = nextRequestID()
            session.pendingRenewals[id] = PendingRenewal(token: token, callID: callID)
            phase = .loggedIn(session)
            sendRequest(.renewToken(RequestTag(id), token: token))
        } else {
            session.token = token
            phase = .loggedIn(session)
            emit(.renewTokenCompleted(callID: callID, error: nil))
        }
    }

    /// Fails the session's unfinished data syncs, sends and renewals with `error`, each in
    /// request order (C11, E5): their replies can no longer come.
    mutating func failWaitingRequests(of session: Session, with error: ClientError) {
        for type in session.openDataSyncs { emit(.dataSyncFinished(type, error: error)) }
        for id in Self.inRequestOrder(session.pendingSends.keys) {
            guard let localID = session.pendingSends[id] else { continue }
            emit(.sendCompleted(localID: localID, messageId: nil, error: error))
        }
        for id in Self.inRequestOrder(session.pendingRenewals.keys) {
            guard let renewal = session.pendingRenewals[id] else { continue }
            emit(.renewTokenCompleted(callID: renewal.callID, error: error))
        }
    }

    /// Request ids are decimal counters: shorter first, then by text, is numeric order.
    static func inRequestOrder(_ ids: some Sequence<String>) -> [String] {
        ids.sorted { ($0.count, $0) < ($1.count, $1) }
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
        sendRequest(.send(RequestTag(id), to: to, text: text))
    }

    /// C10: an offline message is acked once stored, so it is delivered once.
    mutating func messageStored(messageId: String) {
        guard case .loggedIn(let session) = phase, session.link == .connected else { return }
        sendRequest(.ack(RequestTag(nextRequestID()), messageId: messageId))
    }
}
