extension SessionEngine {
    /// What faults see of `connection`: the app, user and resource of its session; only the
    /// connection when it is not logged in.
    public func faultSubject(of connection: ConnectionID) -> FaultSubject {
        guard case .loggedIn(let sessionID) = connections[connection], let session = sessions[sessionID] else {
            return FaultSubject(connection: connection)
        }
        return session.subject
    }
}
