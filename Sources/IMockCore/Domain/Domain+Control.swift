extension Domain {
    /// The app named `key`.
    public func app(_ key: AppKey) throws(DomainError) -> App {
        guard let app = directory.apps[key] else { throw .noSuchApp(key) }
        return app
    }

    /// Kicks the live sessions of `user` (one `resource`, or all) with any `code`; returns the
    /// kicked resources and the outputs. No live session is an error.
    public mutating func kick(
        app key: AppKey, user: String, resource: String?, code: Int, reason: String, by: KickedBy?, nowMs: Int64
    ) throws(DomainError) -> (resources: [String], outputs: [SessionOutput]) {
        let sessions = engine.sessions(of: user, in: key).filter { resource == nil || $0.device.resource == resource }
        guard !sessions.isEmpty else { throw .noLiveSession(user: user, resource: resource, app: key) }
        let outputs = engine.kick(app: key, user: user, resource: resource, code: code, reason: reason, by: by, nowMs: nowMs)
        return (sessions.map(\.device.resource), outputs)
    }

    /// Refuses every token issued so far to `user`; returns the canonical name and the new
    /// minimum token id.
    public mutating func revokeAllTokens(of user: String, in key: AppKey) throws(DomainError) -> (user: String, id: UInt64) {
        do throws(DirectoryError) {
            try directory.revokeAllTokens(of: user, in: key)
            let stored = try directory.user(user, in: key)
            return (stored.username, stored.minimumTokenSerial)
        } catch {
            throw .noSuchUser(user, key)
        }
    }

    /// Expires `user`'s tokens now: every token issued so far is refused from now on, and every
    /// live session ends as expired. Returns the new minimum token id, the ended resources and
    /// the outputs.
    public mutating func expireTokens(of user: String, in key: AppKey, nowMs: Int64) throws(DomainError)
        -> (user: String, minimumTokenID: UInt64, resources: [String], outputs: [SessionOutput])
    {
        let minimum = try revokeAllTokens(of: user, in: key)
        let sessions = engine.sessions(of: minimum.user, in: key)
        let outputs = engine.expireTokens(app: key, user: minimum.user, nowMs: nowMs)
        return (minimum.user, minimum.id, sessions.map(\.device.resource), outputs)
    }

    /// Changes app `key`'s settings. Disabling the service kicks every live session of the app
    /// with 305 (logins are refused while it stays disabled); the other settings apply from the
    /// next login or request. Returns the kicked resources and the outputs.
    public mutating func updateSettings(_ settings: AppSettings, of key: AppKey, nowMs: Int64) throws(DomainError)
        -> (kicked: [String], outputs: [SessionOutput])
    {
        do throws(DirectoryError) {
            try directory.updateSettings(settings, of: key)
        } catch {
            switch error {
            case .invalidSettings(let text): throw .invalidSettings(text)
            case .appNotFound: throw .noSuchApp(key)
            default: throw .invalidSettings("\(error)")
            }
        }
        guard !settings.serviceEnabled else { return ([], []) }
        let kicked = engine.sessions(in: key).map(\.device.resource)
        return (kicked, engine.appServiceDisabled(app: key, nowMs: nowMs))
    }
}
