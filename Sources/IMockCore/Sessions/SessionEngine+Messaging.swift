extension SessionEngine {
    /// `send`: a live recipient gets a `message` on each of its sessions (no ack needed); an
    /// offline one gets it queued for the next login. The sender gets `send.ok`.
    mutating func send(
        from session: ConnectedSession, id: String, to rawRecipient: String, text: String, nowMs: Int64,
        directory: Directory
    ) -> [SessionEffect] {
        guard let recipient = UserKey(app: session.key.app, rawUser: rawRecipient) else {
            return [requestError(session.connection, id: id, .invalidParam, "field to is not a valid username", field: "to")]
        }
        guard directory.apps[recipient.app]?.users[recipient.user] != nil else {
            return [requestError(session.connection, id: id, .userNotFound, "no such user", field: "to")]
        }
        let live = sessionsByUser[recipient] ?? []
        if live.isEmpty, (offlineQueues[recipient]?.count ?? 0) >= configuration.maximumOfflineMessagesPerUser {
            return [requestError(session.connection, id: id, .exceedServiceLimit, "the recipient's offline queue is full")]
        }
        let message = ChatMessage(
            messageId: String(nextMessageSerial), from: session.key.user, to: recipient.user, text: text, timestamp: nowMs)
        nextMessageSerial += 1
        var effects: [SessionEffect] = []
        if live.isEmpty {
            offlineQueues[recipient, default: []].append(message)
        } else {
            for sessionID in live {
                if let target = sessions[sessionID] { effects.append(.send(target.connection, .message(message))) }
            }
        }
        effects.append(.send(session.connection, .sendOK(id: id, messageId: message.messageId, timestamp: nowMs)))
        return effects
    }

    /// The connection has more output waiting than the server allows (its client does not
    /// read): the messages it was sent but had not taken go back to the front of the user's
    /// offline queue, in order (nothing is lost; a message the client did read after all comes
    /// again at the next login, with the same id), and the session closes with 1008.
    public mutating func outputOverflowed(
        _ connection: ConnectionID, undelivered: [ChatMessage], nowMs: Int64
    ) -> [SessionEffect] {
        let reason = "the client does not read: too much output is waiting"
        guard case .loggedIn(let sessionID) = connections[connection], let session = sessions[sessionID] else {
            connections[connection] = .closing
            return [.close(connection, closeCode: CloseCode.outputOverflow, reason: reason)]
        }
        let queue = offlineQueues[session.key] ?? []
        let queued = Set(queue.map(\.messageId))
        let back = undelivered.filter { !queued.contains($0.messageId) }
        if !back.isEmpty { offlineQueues[session.key] = back + queue }
        return closeSession(sessionID, code: CloseCode.outputOverflow, reason: reason, nowMs: nowMs)
    }

    /// `ack`: removes a queued offline message of the session's user for good.
    mutating func ack(_ session: ConnectedSession, id: String, messageId: String) -> [SessionEffect] {
        guard let index = offlineQueues[session.key]?.firstIndex(where: { $0.messageId == messageId }) else {
            let message = "no offline message with this id is waiting"
            return [requestError(session.connection, id: id, .messageInvalid, message, field: "messageId")]
        }
        offlineQueues[session.key]?.remove(at: index)
        if offlineQueues[session.key]?.isEmpty == true { offlineQueues[session.key] = nil }
        return [.send(session.connection, .ackOK(id: id))]
    }

    /// `logout`: `logout.ok` then close 1000. With `unbindDeviceToken` while the app's
    /// `failUnbind` fault is set: `error` 212 and the session stays (E8).
    mutating func logout(_ session: ConnectedSession, id: String, unbindDeviceToken: Bool, nowMs: Int64) -> [SessionEffect] {
        if unbindDeviceToken, faults(for: session.key.app).failUnbind {
            return [requestError(session.connection, id: id, .unbindDeviceTokenFailed, "unbinding the device token failed")]
        }
        var effects: [SessionEffect] = [.send(session.connection, .logoutOK(id: id))]
        effects += closeSession(session.id, code: CloseCode.normal, reason: "logout", nowMs: nowMs)
        return effects
    }
}
