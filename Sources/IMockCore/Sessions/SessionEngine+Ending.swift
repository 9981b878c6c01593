extension SessionEngine {
    /// Ends a session the way a kick does: journalled, then an ``SessionEnd/Cause/kicked(code:by:)``
    /// end; its timers are cancelled.
    mutating func kickSession(_ sessionID: SessionID, code: Int, reason: String, by: KickedBy?, nowMs: Int64)
        -> [SessionOutput]
    {
        var outputs: [SessionOutput] = []
        kickSession(sessionID, code: code, reason: reason, by: by, nowMs: nowMs, into: &outputs)
        return outputs
    }

    /// ``kickSession(_:code:reason:by:nowMs:)`` appending to `outputs`: a kick of thousands of
    /// sessions (an app disabled) builds one array, not several small ones per session.
    mutating func kickSession(
        _ sessionID: SessionID, code: Int, reason: String, by: KickedBy?, nowMs: Int64, into outputs: inout [SessionOutput]
    ) {
        guard let session = sessions[sessionID] else { return }
        outputs.append(journal(session, .kicked(code: code, reason: reason, by: by), nowMs))
        endSession(sessionID, .kicked(code: code, by: by), reason: reason, into: &outputs)
    }

    /// Ends a session with `cause` (the shell closes its connection as the dialect says, and
    /// journals the close), forgets it and cancels its timers.
    mutating func endSession(_ sessionID: SessionID, _ cause: SessionEnd.Cause, reason: String) -> [SessionOutput] {
        var outputs: [SessionOutput] = []
        endSession(sessionID, cause, reason: reason, into: &outputs)
        return outputs
    }

    /// ``endSession(_:_:reason:)`` appending to `outputs`.
    mutating func endSession(
        _ sessionID: SessionID, _ cause: SessionEnd.Cause, reason: String, into outputs: inout [SessionOutput]
    ) {
        guard let session = sessions[sessionID] else { return }
        connections[session.connection] = .closing
        let end = SessionEnd(cause: cause, reason: reason, subject: session.subject)
        outputs.append(.end(session.connection, end))
        removeSession(sessionID)
        if confirmedByProtocol.contains(session.connection) { releaseInFlight(of: session.connection) }
    }

    /// Forgets a session and cancels its token timers (no output to it: the timers are the
    /// engine's own).
    mutating func removeSession(_ sessionID: SessionID) {
        guard let session = sessions.removeValue(forKey: sessionID) else { return }
        users[session.key]?.live.remove(sessionID)
        if users[session.key]?.isEmpty == true { users[session.key] = nil }
        cancelTokenTimers(of: session)
    }

    func journal(_ session: ConnectedSession, _ event: JournalEvent, _ nowMs: Int64) -> SessionOutput {
        .journal(JournalEntry(atMs: nowMs, subject: session.subject, event: event))
    }
}
