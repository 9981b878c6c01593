import IMockCore
import IMockWire

extension ClientStateMachine {
    mutating func frameReceived(generation: UInt64, frame: ServerFrame) {
        guard generation == liveSocket else { return }  // X2: nothing of an old socket
        switch phase {
        case .loggedOut: return
        case .loggingIn(let attempt): loginFrame(frame, attempt: attempt)
        case .loggedIn(let session): sessionFrame(frame, session: session)
        }
    }

    /// The reply to the app's own login (E3, C7: 104 / 213 come back as the completion error).
    private mutating func loginFrame(_ frame: ServerFrame, attempt: LoginInFlight) {
        guard case .awaitingReply(let id) = attempt.step else { return }
        switch frame {
        case .loginOK(id, let resource, let expiresAt, _):
            output.append(.cancelTimer(.loginTimeout))
            phase = .loggedIn(
                Session(
                    user: attempt.user, token: attempt.token, tokenExpiresAt: expiresAt, resource: resource,
                    link: .connected, everConnected: true))
            lastOnlineUser = attempt.user
            for _ in 0...attempt.joined { emit(.loginCompleted(user: attempt.user, error: nil)) }
            emit(.connected(reconnected: false))
            output.append(.scheduleTimer(.keepAlive, afterMs: options.keepAliveIntervalMs))
        case .loginError(id, let code, let message), .error(id?, let code, let message, _):
            failLogin(ClientError(code: code, message: message))
        case .kicked(let code, let reason, _):
            failLogin(ClientError(code: code, message: reason))
        default:
            return
        }
    }

    private mutating func sessionFrame(_ frame: ServerFrame, session: Session) {
        var session = session
        if case .awaitingReply(_, let id) = session.link {
            return reconnectReply(frame, id: id, session: session)
        }
        guard session.link == .connected else { return }
        switch frame {
        case .kicked(let code, let reason, let by):
            endSession(Self.endReason(code: code, message: reason, by: by))
        case .tokenExpired:
            endSession(.tokenExpired)
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
            emit(.dataSyncFinished(type, error: error.map { ClientError(code: $0.code, message: $0.message) }))
        case .renewTokenOK(let id, let expiresAt):
            guard let renewal = session.pendingRenewals.removeValue(forKey: id) else { return }
            session.token = renewal.token
            session.tokenExpiresAt = expiresAt
            phase = .loggedIn(session)
            emit(.renewTokenCompleted(callID: renewal.callID, error: nil))
        case .logoutOK(let id):
            guard session.pendingLogout?.id == id else { return }
            finishLogout()
        case .sendOK(let id, let messageId, _):
            guard let localID = session.pendingSends.removeValue(forKey: id) else { return }
            phase = .loggedIn(session)
            emit(.sendCompleted(localID: localID, messageId: messageId, error: nil))
        case .error(let id?, let code, let message, _):
            requestFailed(id: id, error: ClientError(code: code, message: message), session: session)
        case .pong:
            guard session.awaitingPong else { return }
            session.awaitingPong = false
            phase = .loggedIn(session)
            output.append(.cancelTimer(.pongTimeout))
        case .loginOK, .loginError, .devicesOK, .ackOK, .error(nil, _, _, _):
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

    /// The reply to an automatic login (reconnect, or the first attempt of an offline login).
    private mutating func reconnectReply(_ frame: ServerFrame, id: String, session: Session) {
        var session = session
        switch frame {
        case .loginOK(id, let resource, let expiresAt, _):
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
        case .loginError(id, let code, let message), .error(id?, let code, let message, _):
            let error = ClientError(code: code, message: message)
            emit(.connectionAttemptFailed(error))
            endSession(Self.endReason(code: code, message: message, by: nil))
        case .kicked(let code, let reason, let by):
            endSession(Self.endReason(code: code, message: reason, by: by))
        default:
            return
        }
    }
}
