extension SessionEngine {
    /// Ends a session the way a kick does: `kicked` frame, close `4000 + code`, journal both,
    /// cancel its timers.
    mutating func kickSession(_ sessionID: SessionID, code: Int, reason: String, by: KickedBy?, nowMs: Int64)
        -> [SessionEffect]
    {
        guard let session = sessions[sessionID] else { return [] }
        let frame = ServerFrame.kicked(code: code, reason: reason, by: by)
        var effects: [SessionEffect] = [.send(session.connection, frame), journal(session, .frame(frame), nowMs)]
        effects += closeSession(sessionID, code: CloseCode.forCode(code), reason: reason, nowMs: nowMs)
        return effects
    }

    /// Closes a session's connection with `code` (journalled), forgets the session and
    /// cancels its timers.
    mutating func closeSession(_ sessionID: SessionID, code: UInt16, reason: String, nowMs: Int64) -> [SessionEffect] {
        guard let session = sessions[sessionID] else { return [] }
        let reason = Self.closeReason(reason)
        connections[session.connection] = .closing
        var effects: [SessionEffect] = [
            .close(session.connection, closeCode: code, reason: reason),
            journal(session, .closed(code: code, reason: reason), nowMs),
        ]
        effects += removeSession(sessionID)
        return effects
    }

    /// Forgets a session and cancels its timers (no frames).
    mutating func removeSession(_ sessionID: SessionID) -> [SessionEffect] {
        guard let session = sessions.removeValue(forKey: sessionID) else { return [] }
        sessionsByUser[session.key]?.removeAll { $0 == sessionID }
        if sessionsByUser[session.key]?.isEmpty == true { sessionsByUser[session.key] = nil }
        return session.pendingTimers.map { .cancel($0) }
    }

    func journal(_ session: ConnectedSession, _ event: JournalEvent, _ nowMs: Int64) -> SessionEffect {
        .journal(
            JournalEntry(
                atMs: nowMs, connection: session.connection, app: session.key.app, user: session.key.user,
                resource: session.device.resource, event: event))
    }

    /// A WebSocket close reason is at most 123 bytes of UTF-8; longer reasons are cut at a
    /// character boundary.
    static func closeReason(_ reason: String) -> String {
        TextLimits.prefix(reason, maximumUTF8Bytes: 123)
    }
}
