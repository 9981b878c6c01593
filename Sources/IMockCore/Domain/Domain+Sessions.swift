extension Domain {
    /// A connection was accepted (``SessionEngine/connectionOpened(_:confirmsByTransport:nowMs:)``).
    public mutating func connectionOpened(
        _ connection: ConnectionID, confirmsByTransport: Bool = true, nowMs: Int64
    ) -> [SessionOutput] {
        engine.connectionOpened(connection, confirmsByTransport: confirmsByTransport, nowMs: nowMs)
    }

    /// A connection is gone; what it held and had not confirmed waits again (later, with
    /// `keepingInFlight`: ``releaseInFlight(of:)``).
    public mutating func connectionClosed(
        _ connection: ConnectionID, keepingInFlight: Bool = false, nowMs: Int64
    ) -> [SessionOutput] {
        engine.connectionClosed(connection, keepingInFlight: keepingInFlight, nowMs: nowMs)
    }

    /// The socket of a closed connection is closed too: what it held and had not confirmed
    /// waits again.
    public mutating func releaseInFlight(of connection: ConnectionID) {
        engine.releaseInFlight(of: connection)
    }

    /// These messages in flight to `connection` were never written to it: they wait again.
    public mutating func notWritten(_ connection: ConnectionID, messageIDs: [String]) {
        engine.notWritten(connection, messageIDs: messageIDs)
    }

    /// The device on `connection` pulled these messages: in flight to it until it has them
    /// (``SessionEngine/handedOver(_:messageIDs:)``).
    public mutating func handedOver(_ connection: ConnectionID, messageIDs: [String]) {
        engine.handedOver(connection, messageIDs: messageIDs)
    }

    /// The device on `connection` received these messages (its TCP acknowledged them).
    public mutating func delivered(_ connection: ConnectionID, messageIDs: [String]) {
        engine.delivered(connection, messageIDs: messageIDs)
    }

    /// A device's command, with the server-behaviour faults the active fault book rolls for it
    /// (`failUnbind`, `failSync`), judged against what the connection is known as
    /// (``faultSubject(of:remembered:)``; `remembered` is the shell's record of it, asked for
    /// only while a fault is active).
    public mutating func handle(
        _ command: SessionCommand, on connection: ConnectionID, remembered: FaultSubject?, nowMs: Int64
    ) -> [SessionOutput] {
        let faults = commandFaults(for: command, on: connection, remembered: remembered)
        return engine.handle(command, on: connection, faults: faults, nowMs: nowMs, directory: &directory)
    }

    /// What faults see of `connection`: its session's app, user and resource while it has one,
    /// else what the shell remembers of it (its login request, or the session that ended),
    /// else only the connection.
    public func faultSubject(of connection: ConnectionID, remembered: FaultSubject?) -> FaultSubject {
        let subject = engine.faultSubject(of: connection)
        return subject.app != nil ? subject : remembered ?? subject
    }

    /// The engine's wake-up is due (``SessionOutput/wake(atMs:)``): its token timers due by
    /// `nowMs` fire.
    public mutating func fireDueTimers(nowMs: Int64) -> [SessionOutput] {
        engine.fireDueTimers(nowMs: nowMs)
    }

    /// A connection's client stopped reading (its output passed the limit).
    public mutating func outputOverflowed(_ connection: ConnectionID, nowMs: Int64) -> [SessionOutput] {
        engine.outputOverflowed(connection, nowMs: nowMs)
    }

    /// The faults of one command: `failUnbind` for a logout that unbinds, `failSync` for a login
    /// that asks for a data sync; each matching fault rolls once. Any other command, or an
    /// empty book, needs no subject.
    private mutating func commandFaults(
        for command: SessionCommand, on connection: ConnectionID, remembered: FaultSubject?
    ) -> CommandFaults {
        guard !faults.isEmpty else { return .none }
        let logoutUnbinds: Bool
        let syncTypes: [SyncType]
        switch command {
        case .login(_, let request): (logoutUnbinds, syncTypes) = (false, request.sync)
        case .logout(_, let unbind): (logoutUnbinds, syncTypes) = (unbind, [])
        default: return .none
        }
        let subject = faultSubject(of: connection, remembered: remembered)
        guard subject.app != nil else { return .none }
        return faults.commandFaults(for: subject, logoutUnbinds: logoutUnbinds, syncTypes: syncTypes)
    }
}
