import IMockCore

/// What the engine's replies, pushes and ends are in msync (docs/PROTOCOL-MSYNC.md).
extension MsyncDialect {
    public mutating func encode(reply: SessionReply, tag: RequestTag?) -> [WireMessage] {
        switch reply {
        case .loginAccepted(let resource, let expiresAt, _):
            loggedIn = true
            tokenExpiresAt = expiresAt
            selfJID?.clientResource = resource
            var provision = MsyncPB.Provision()
            provision.status = MsyncPB.Status()
            provision.resource = resource
            provision.authToken = expiresAt.map(MsyncProvision.replyAuthToken)
            return [wire(.provision, provision)]
        case .pong(let serverTime):
            var unread = MsyncPB.CommUnreadDL()
            unread.status = MsyncPB.Status()
            unread.unread = loggedIn ? inbox.unread.map { MsyncPB.MetaQueue(queue: jid($0.peer), n: UInt32(clamping: $0.count)) } : []
            unread.timestamp = UInt64(max(0, serverTime))
            return [wire(.unread, unread)]
        case .tokenRenewed(let expiresAt):
            tokenExpiresAt = expiresAt
            return []
        case .loggedOut:
            var logout = MsyncPB.Logout()
            logout.status = MsyncPB.Status()
            return [wire(.logout, logout)]
        case .sent(let messageId, let timestamp):
            guard let metaId = sendMetaID(tag) else { return [] }
            let recipient = pendingSends.removeValue(forKey: metaId)
            return [sentAnswer(metaId, serverId: UInt64(messageId), timestamp: UInt64(max(0, timestamp)), to: recipient)]
        case .refused(let error, _):
            return refusal(error, tag: tag)
        case .devices, .acked:
            return []
        }
    }

    mutating func refusal(_ error: SessionError, tag: RequestTag?) -> [WireMessage] {
        if tag == Self.provisionTag {
            var provision = MsyncPB.Provision()
            provision.status = MsyncStatusTable.status(for: error)
            return [wire(.provision, provision)]
        }
        if tag == Self.logoutTag {
            var logout = MsyncPB.Logout()
            logout.status = MsyncPB.Status(errorCode: .fail, reason: "Sorry, " + error.message)
            return [wire(.logout, logout)]
        }
        guard let metaId = sendMetaID(tag) else { return [] }
        let recipient = pendingSends.removeValue(forKey: metaId) ?? ""
        let status: MsyncPB.Status =
            switch error {
            case .recipientNotFound, .invalidRecipient:
                // The SDK reads "username … doesn't exist!" as USER_NOT_FOUND.
                MsyncPB.Status(errorCode: .fail, reason: "username \(recipient) doesn't exist!")
            case .notLoggedIn: MsyncPB.Status(errorCode: .unauthorized, reason: "Sorry, log in first")
            case .textTooLong: MsyncPB.Status(errorCode: .wrongParameter, reason: "Sorry, " + error.message)
            default: MsyncPB.Status(errorCode: .fail, reason: "Sorry, " + error.message)
            }
        return [wire(.sync, sendAck(metaId, status, to: recipient))]
    }

    public mutating func encode(push: SessionPush) -> [WireMessage] {
        switch push {
        case .tokenWillExpire:
            // The SDK compares this server time with the expiry it was given and warns when at
            // most a fifth of the life it saw at login is left (4.15.0 and later): the server's
            // now, where a clock jump ends (the hub's wire time), not the timer's deadline. The
            // timer comes a second after the threshold (LoginRequest.heartbeatWarningDelayMs).
            return [wire(.unread, serverTimeOnly(nowMs))]
        case .offlineStart:
            receivingOffline = true
            return []
        case .offlineFinish:
            receivingOffline = false
            return []
        case .message(let message):
            let notice = inbox.add(message)
            guard notice, !receivingOffline else { return [] }
            // `CommNotice(queue: jid(message.from))`, written in place.
            let appKeyField = appKeyField
            return [
                MsyncEnvelope.message(command: .notice, framing: framing) {
                    Self.writeUserJID(message.from, appKeyField: appKeyField, field: 1, to: &$0)
                }
            ]
        case .syncStart, .syncFinish:
            return []  // msync has no data-sync frames (the Web SDK syncs over REST)
        }
    }

    public mutating func encode(end: SessionEnd) -> (messages: [WireMessage], close: WireClose) {
        loggedIn = false
        switch end.cause {
        case .loginRefused(_, let error):
            var provision = MsyncPB.Provision()
            provision.status = MsyncStatusTable.status(for: error)
            return ([wire(.provision, provision)], goodbye(code: CloseCode.forCode(error.imockCode), reason: end.reason))
        case .kicked(let code, let by):
            let close = goodbye(code: CloseCode.forCode(code), reason: end.reason)
            if let operation = MsyncKick.operation(forCode: code) {
                let reason = operation == .userLoginAnotherDevice ? by?.extensionInfo : nil
                return ([wire(.sync, statistic(operation, reason: reason))], close)
            }
            if code == KickCode.tokenExpired.rawValue { return ([wire(.unread, serverTimeOnly(expiredTime))], close) }
            var provision = MsyncPB.Provision()
            provision.status = MsyncStatusTable.status(code: code, sentence: end.reason)
            return ([wire(.provision, provision)], close)
        case .tokenExpired:
            let close = goodbye(code: CloseCode.forCode(KickCode.tokenExpired.rawValue), reason: end.reason)
            return ([wire(.unread, serverTimeOnly(expiredTime))], close)
        case .replaced:
            // Two tabs of one browser share a device id (`isFixedDeviceId`, the default): the new
            // tab takes over and the old one is told, as the real service does — a 206 the SDK
            // reports and does not retry. A silent 1000 it takes for a drop and reconnects, and
            // the two tabs replace each other forever.
            let close = goodbye(code: CloseCode.forCode(KickCode.loggedInOnAnotherDevice.rawValue), reason: end.reason)
            return ([wire(.sync, statistic(.userLoginAnotherDevice, reason: nil))], close)
        case .loggedOut:
            return ([], WireClose(code: CloseCode.normal, reason: end.reason))
        case .outputOverflow:
            return ([], WireClose(code: CloseCode.outputOverflow, reason: end.reason))
        }
    }
}
