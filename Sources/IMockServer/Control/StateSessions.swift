import IMockCore

/// What happens to the live side of an app whose stored state the control API replaces
/// (reset, restore, seed over an existing app): every session is kicked with 207 (`kicked`,
/// then close 4207, reason "the app's state was replaced by the control API"), every offline
/// queue and remembered last-login device is dropped, and the distinct-active-user count
/// starts again from zero. The REST rate limiter and the app's faults are left alone.
enum StateSessions {
    /// The kick code: 207 ("user removed") — a client must not log in again by itself, since
    /// its user and token may not exist in the new state.
    static let kickCode = KickCode.userRemoved.rawValue

    /// The reason of the `kicked` frame and the close.
    static let reason = "the app's state was replaced by the control API"

    /// Ends the live side of `app`. `users` are the usernames the app had before the change
    /// (their offline queues are dropped too, also when they have no session).
    static func end(app: AppKey, users: [String], in server: MockServer) {
        let now = server.clock.nowMs
        let live = unique(server.hub.engine.sessions(in: app).map(\.user))
        let everyone = unique(live + users.sorted())
        server.hub.run { engine in
            var effects: [SessionOutput] = []
            // Earliest login first, as the engine lists sessions.
            for user in live {
                effects += engine.kick(app: app, user: user, resource: nil, code: kickCode, reason: reason, by: nil, nowMs: now)
            }
            // No sessions are left, so this only drops the offline queue and last-login device.
            for user in everyone {
                effects += engine.userDeleted(app: app, user: user, nowMs: now)
            }
            engine.resetActiveUsers(in: app)
            return effects
        }
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// The usernames `app` has now (empty when it does not exist).
    static func users(of app: AppKey, in server: MockServer) -> [String] {
        server.rest.directory.apps[app].map { Array($0.users.keys) } ?? []
    }
}
