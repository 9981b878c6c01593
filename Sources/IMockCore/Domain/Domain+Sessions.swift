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
    /// (`failUnbind`, `failSync`), judged against `subject` — what the connection is known as.
    public mutating func handle(
        _ command: SessionCommand, on connection: ConnectionID, subject: FaultSubject, nowMs: Int64
    ) -> [SessionOutput] {
        let faults = commandFaults(for: command, subject: subject)
        return engine.handle(command, on: connection, faults: faults, nowMs: nowMs, directory: &directory)
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
    /// that asks for a data sync; each matching fault rolls once.
    private mutating func commandFaults(for command: SessionCommand, subject: FaultSubject) -> CommandFaults {
        guard !faults.isEmpty, subject.app != nil else { return .none }
        switch command {
        case .login(_, let request):
            return faults.commandFaults(for: subject, logoutUnbinds: false, syncTypes: request.sync)
        case .logout(_, let unbind):
            return faults.commandFaults(for: subject, logoutUnbinds: unbind, syncTypes: [])
        default:
            return .none
        }
    }
}
