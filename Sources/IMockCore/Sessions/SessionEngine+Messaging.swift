extension SessionEngine {
    /// `send`: a live recipient gets the message on each of its sessions (no ack needed); an
    /// offline one gets it queued for the next login. The sender gets ``SessionReply/sent(messageId:timestamp:)``.
    mutating func send(
        from session: ConnectedSession, tag: RequestTag, to rawRecipient: String, text: String, nowMs: Int64,
        directory: Directory
    ) -> [SessionOutput] {
        guard let recipient = UserKey(app: session.key.app, rawUser: rawRecipient) else {
            return [refuse(session.connection, tag, .invalidRecipient, field: "to")]
        }
        guard directory.apps[recipient.app]?.users[recipient.user] != nil else {
            return [refuse(session.connection, tag, .recipientNotFound, field: "to")]
        }
        let live = users[recipient]?.live.all ?? []
        if live.isEmpty, (offlineQueues[recipient]?.count ?? 0) >= configuration.maximumOfflineMessagesPerUser {
            return [refuse(session.connection, tag, .offlineQueueFull)]
        }
        let message = ChatMessage(
            messageId: String(nextMessageSerial), from: session.key.user, to: recipient.user, text: text, timestamp: nowMs)
        nextMessageSerial += 1
        changeLog.record(.messageIDIssued)
        var outputs: [SessionOutput] = []
        if live.isEmpty {
            offlineQueues[recipient, default: OfflineQueue()].append(message)
            changeLog.record(.messagesQueued(recipient.app, recipient: recipient.user, messages: [message], atFront: false))
        } else {
            for session in live {
                if let target = sessions[session.id] { outputs.append(.push(target.connection, .message(message))) }
            }
        }
        outputs.append(.reply(session.connection, tag, .sent(messageId: message.messageId, timestamp: nowMs)))
        return outputs
    }

    /// The connection has more output waiting than the server allows (its client does not
    /// read): the messages it was sent but had not taken go back to the front of the user's
    /// offline queue, in order (nothing is lost; a message the client did read after all comes
    /// again at the next login, with the same id), and the session ends. A connection the
    /// engine already ended (its close is under way) or does not know gets nothing: one end per
    /// connection.
    public mutating func outputOverflowed(
        _ connection: ConnectionID, undelivered: [ChatMessage], nowMs: Int64
    ) -> [SessionOutput] {
        guard let state = connections[connection], state != .closing else { return [] }
        let reason = "the client does not read: too much output is waiting"
        guard case .loggedIn(let sessionID) = connections[connection], let session = sessions[sessionID] else {
            connections[connection] = .closing
            let end = SessionEnd(cause: .outputOverflow, reason: reason, subject: JournalSubject(connection: connection))
            return [.end(connection, end)]
        }
        requeue(undelivered, for: session.key)
        return endSession(sessionID, .outputOverflow, reason: reason)
    }

    /// Puts messages the device never took back at the front of `key`'s offline queue, in
    /// order, leaving out those still queued (nothing is lost; one the client did read after
    /// all comes again at the next login, with the same id).
    mutating func requeue(_ undelivered: [ChatMessage], for key: UserKey) {
        guard !undelivered.isEmpty else { return }
        let queue = offlineQueues[key] ?? OfflineQueue()
        let back = undelivered.filter { !queue.contains($0.messageId) }
        if !back.isEmpty {
            offlineQueues[key] = OfflineQueue(back + queue.messages)
            changeLog.record(.messagesQueued(key.app, recipient: key.user, messages: back, atFront: true))
        }
    }

    /// `ack`: removes a queued offline message of the session's user for good.
    mutating func ack(_ session: ConnectedSession, tag: RequestTag, messageId: String) -> [SessionOutput] {
        guard offlineQueues[session.key]?.remove(messageId) == true else {
            return [refuse(session.connection, tag, .messageNotWaiting, field: "messageId")]
        }
        changeLog.record(.messageAcked(session.key.app, recipient: session.key.user, messageID: messageId))
        if offlineQueues[session.key]?.isEmpty == true { offlineQueues[session.key] = nil }
        return [.reply(session.connection, tag, .acked)]
    }

    /// `logout`: ``SessionReply/loggedOut`` then the end. With `unbindDeviceToken` while the
    /// `failUnbind` fault applies: refused (212 in the imock dialect) and the session stays (E8).
    mutating func logout(
        _ session: ConnectedSession, tag: RequestTag, unbindDeviceToken: Bool, faults: CommandFaults, nowMs: Int64
    ) -> [SessionOutput] {
        if unbindDeviceToken, faults.failUnbind { return [refuse(session.connection, tag, .unbindFailed)] }
        return [.reply(session.connection, tag, .loggedOut)] + endSession(session.id, .loggedOut, reason: "logout")
    }
}
