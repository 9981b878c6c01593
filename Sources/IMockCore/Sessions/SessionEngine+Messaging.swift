extension SessionEngine {
    /// `send`: the message joins the recipient's queue and is pushed to each of its live
    /// sessions (in flight until a device confirms it), or waits for the next login. The
    /// sender gets ``SessionReply/sent(messageId:timestamp:)``. Refused past the text limit
    /// and when the recipient's queue — waiting and in flight together — is full.
    mutating func send(
        from session: ConnectedSession, tag: RequestTag, to rawRecipient: String, text: String, nowMs: Int64,
        directory: Directory
    ) -> [SessionOutput] {
        guard let recipient = UserKey(app: session.key.app, rawUser: rawRecipient) else {
            return [refuse(session.connection, tag, .invalidRecipient, field: "to")]
        }
        if let error = MessageLimits.check(text: text) {
            return [refuse(session.connection, tag, error, field: "text"), journal(session, .refused(tag, error), nowMs)]
        }
        guard directory.apps[recipient.app]?.users.index(forKey: recipient.user) != nil else {
            return [refuse(session.connection, tag, .recipientNotFound, field: "to")]
        }
        let queue = offlineQueues.index(forKey: recipient)
        if let queue, offlineQueues.values[queue].count >= configuration.maximumOfflineMessagesPerUser {
            return [refuse(session.connection, tag, .offlineQueueFull), journal(session, .refused(tag, .offlineQueueFull), nowMs)]
        }
        let message = ChatMessage(
            messageId: String(nextMessageSerial), from: session.key.user, to: recipient.user, text: text, timestamp: nowMs)
        nextMessageSerial += 1
        changeLog.record(.messageIDIssued)
        var live = ConnectionList()
        users[recipient]?.live.forEach { if let session = sessions[$0.id] { live.append(session.connection) } }
        enqueue(message, for: recipient, queue: queue, heldBy: live)
        var outputs: [SessionOutput] = []
        outputs.reserveCapacity(live.count + 1)
        for connection in live { outputs.append(.push(connection, .message(message))) }
        outputs.append(.reply(session.connection, tag, .sent(messageId: message.messageId, timestamp: nowMs)))
        return outputs
    }

    /// The connection holds more than the server allows for it (its client does not read):
    /// the session ends; the messages it held and had not confirmed wait again when the shell
    /// reports the close (nothing is lost; one the client did read after all comes again at
    /// the next login, with the same id). A connection the engine already ended (its close is
    /// under way) or does not know gets nothing: one end per connection.
    public mutating func outputOverflowed(_ connection: ConnectionID, nowMs: Int64) -> [SessionOutput] {
        guard let state = connections[connection], state != .closing else { return [] }
        let reason = "the client does not read: too much output is waiting"
        guard case .loggedIn(let sessionID) = connections[connection], sessions[sessionID] != nil else {
            connections[connection] = .closing
            let end = SessionEnd(cause: .outputOverflow, reason: reason, subject: JournalSubject(connection: connection))
            return [.end(connection, end)]
        }
        return endSession(sessionID, .outputOverflow, reason: reason)
    }

    /// `ack`: a device of the session's user confirmed message `messageId` (offline, or live in
    /// flight): it is removed for good.
    mutating func ack(_ session: ConnectedSession, tag: RequestTag, messageId: String) -> [SessionOutput] {
        guard confirm(messageId, of: session.key) else {
            return [refuse(session.connection, tag, .messageNotWaiting, field: "messageId")]
        }
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
