extension SessionEngine {
    /// Ends a session the way a kick does: journalled, then an ``SessionEnd/Cause/kicked(code:by:)``
    /// end; its timers are cancelled.
    mutating func kickSession(_ sessionID: SessionID, code: Int, reason: String, by: KickedBy?, nowMs: Int64)
        -> [SessionOutput]
    {
        guard let session = sessions[sessionID] else { return [] }
        let journalled = journal(session, .kicked(code: code, reason: reason, by: by), nowMs)
        return [journalled] + endSession(sessionID, .kicked(code: code, by: by), reason: reason)
    }

    /// Ends a session with `cause` (the shell closes its connection as the dialect says, and
    /// journals the close), forgets it and cancels its timers.
    mutating func endSession(_ sessionID: SessionID, _ cause: SessionEnd.Cause, reason: String) -> [SessionOutput] {
        guard let session = sessions[sessionID] else { return [] }
        connections[session.connection] = .closing
        closingUsers[session.connection] = session.key
        let end = SessionEnd(cause: cause, reason: reason, subject: session.subject)
        return [.end(session.connection, end)] + removeSession(sessionID)
    }

    /// Forgets a session and cancels its timers (no output to it).
    mutating func removeSession(_ sessionID: SessionID) -> [SessionOutput] {
        guard let session = sessions.removeValue(forKey: sessionID) else { return [] }
        sessionsByUser[session.key]?.remove(sessionID)
        if sessionsByUser[session.key]?.isEmpty == true { sessionsByUser[session.key] = nil }
        return session.pendingTimers.map { .cancel($0) }
    }

    func journal(_ session: ConnectedSession, _ event: JournalEvent, _ nowMs: Int64) -> SessionOutput {
        .journal(JournalEntry(atMs: nowMs, subject: session.subject, event: event))
    }
}
