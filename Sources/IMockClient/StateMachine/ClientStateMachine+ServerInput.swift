import IMockCore

extension ClientStateMachine {
    mutating func serverSaid(generation: UInt64, _ input: ServerInput) {
        guard generation == liveSocket else { return }  // X2: nothing of an old socket
        switch phase {
        case .loggedOut: return
        case .loggingIn(let attempt): loginInput(input, attempt: attempt)
        case .loggedIn(let session): sessionInput(input, session: session)
        }
    }

    /// The answer to the app's own login (E3, C7: 104 / 213 come back as the completion error).
    private mutating func loginInput(_ input: ServerInput, attempt: LoginInFlight) {
        guard case .awaitingReply(let id) = attempt.step else { return }
        switch input {
        case .reply(let tag, let reply) where tag?.rawValue == id:
            switch reply {
            case .loginAccepted(let resource, let expiresAt, _):
                output.append(.cancelTimer(.loginTimeout))
                phase = .loggedIn(
                    Session(
                        user: attempt.user, token: attempt.token, tokenExpiresAt: expiresAt, resource: resource,
                        link: .connected, everConnected: true))
                lastOnlineUser = attempt.user
                for _ in 0...attempt.joined { emit(.loginCompleted(user: attempt.user, error: nil)) }
                emit(.connected(reconnected: false))
                output.append(.scheduleTimer(.keepAlive, afterMs: options.keepAliveIntervalMs))
            case .loginRefused(let error), .refused(let error, _):
                failLogin(error)
            default:
                return
            }
        case .end(.kicked(let code, let reason, _)):
            failLogin(ClientError(code: code, message: reason))
        default:
            return
        }
    }

    private mutating func sessionInput(_ input: ServerInput, session: Session) {
        if case .awaitingReply(_, let id) = session.link {
            return reconnectInput(input, id: id, session: session)
        }
        guard session.link == .connected else { return }
        switch input {
        case .end(.kicked(let code, _, _)) where options.plantedBug == .reconnectAfterKick(code: code):
            closeLiveSocket()
            connectionDropped(reason: "kicked (planted bug: taken for a drop)")
        case .end(.kicked(let code, let reason, let by)):
            endSession(Self.endReason(code: code, message: reason, by: by))
        case .end(.tokenExpired):
            endSession(.tokenExpired)
        case .push(let push):
            sessionPush(push, session: session)
        case .reply(_, .pong):
            guard session.awaitingPong else { return }
            var session = session
            session.awaitingPong = false
            phase = .loggedIn(session)
            output.append(.cancelTimer(.pongTimeout))
        case .reply(let tag?, let reply):
            sessionReply(reply, id: tag.rawValue, session: session)
        case .reply(nil, _):
            return
        }
    }

    private mutating func sessionPush(_ push: ServerPush, session: Session) {
        var session = session
        switch push {
        case .tokenWillExpire(let expiresAt):
            emit(.tokenWillExpire(expiresAt: expiresAt, remainingMs: expiresAt - nowMs))
        case .offlineStart(let count):
            session.inOfflineSync = true
            phase = .loggedIn(session)
            emit(.offlineSyncStarted(count: count))
        case .message(let message):
            output.append(.storeMessage(message, offline: session.inOfflineSync))
            emit(.messageReceived(message, offline: session.inOfflineSync))
        case .offlineFinish:
            session.inOfflineSync = false
            phase = .loggedIn(session)
            emit(.offlineSyncFinished)
        case .syncStart(let type):
            session.openDataSyncs.append(type)
            phase = .loggedIn(session)
            emit(.dataSyncStarted(type))
        case .syncFinish(let type, let error):
            session.openDataSyncs.removeAll { $0 == type }
            phase = .loggedIn(session)
            emit(.dataSyncFinished(type, error: error))
        }
    }

    /// The answer to request `id` of a connected session.
    private mutating func sessionReply(_ reply: ServerReply, id: String, session: Session) {
        var session = session
        switch reply {
        case .tokenRenewed(let expiresAt):
            guard let renewal = session.pendingRenewals.removeValue(forKey: id) else { return }
            session.token = renewal.token
            session.tokenExpiresAt = expiresAt
            phase = .loggedIn(session)
            emit(.renewTokenCompleted(callID: renewal.callID, error: nil))
        case .loggedOut:
            guard session.pendingLogout?.id == id else { return }
            finishLogout()
        case .sent(let messageId, _):
            guard let localID = session.pendingSends.removeValue(forKey: id) else { return }
            phase = .loggedIn(session)
            emit(.sendCompleted(localID: localID, messageId: messageId, error: nil))
        case .refused(let error, _):
            requestFailed(id: id, error: error, session: session)
        case .loginAccepted, .loginRefused, .pong, .devices, .acked:
            return
        }
    }

    /// E5, E8: a refused request; a refused logout leaves the user logged in.
    private mutating func requestFailed(id: String, error: ClientError, session: Session) {
        var session = session
        if let renewal = session.pendingRenewals.removeValue(forKey: id) {
            phase = .loggedIn(session)
            emit(.renewTokenCompleted(callID: renewal.callID, error: error))
        } else if let localID = session.pendingSends.removeValue(forKey: id) {
            phase = .loggedIn(session)
            emit(.sendCompleted(localID: localID, messageId: nil, error: error))
        } else if session.pendingLogout?.id == id {
            session.pendingLogout = nil
            phase = .loggedIn(session)
            emit(.logoutCompleted(error: error, loggedOut: false))
        }
    }

    /// The answer to an automatic login (reconnect, or the first attempt of an offline login).
    private mutating func reconnectInput(_ input: ServerInput, id: String, session: Session) {
        var session = session
        switch input {
        case .reply(let tag, let reply) where tag?.rawValue == id:
            switch reply {
            case .loginAccepted(let resource, let expiresAt, _):
                let reconnected = session.everConnected
                output.append(.cancelTimer(.loginTimeout))
                session.link = .connected
                session.everConnected = true
                session.resource = resource
                session.tokenExpiresAt = expiresAt
                phase = .loggedIn(session)
                lastOnlineUser = session.user
                emit(.connected(reconnected: reconnected))
                output.append(.scheduleTimer(.keepAlive, afterMs: options.keepAliveIntervalMs))
            case .loginRefused(let error), .refused(let error, _):
                emit(.connectionAttemptFailed(error))
                endSession(Self.endReason(code: error.code, message: error.message, by: nil))
            default:
                return
            }
        case .end(.kicked(let code, let reason, let by)):
            endSession(Self.endReason(code: code, message: reason, by: by))
        default:
            return
        }
    }
}
