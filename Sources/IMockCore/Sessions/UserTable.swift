/// The engine's ``UserSessions`` by user, in one table per app: keyed by the username alone, a
/// slot is a word smaller than one keyed by ``UserKey`` (its app key), and the table has 32,768
/// slots for 15,000 users (docs/BENCHMARKS.md, `fleet`). Reads and writes as a dictionary does.
struct UserTable: Sendable {
    private var byApp: [AppKey: [String: UserSessions]] = [:]

    subscript(key: UserKey) -> UserSessions? {
        get { byApp[key.app]?[key.user] }
        _modify { yield &byApp[key.app, default: [:]][key.user] }
    }

    subscript(key: UserKey, default value: @autoclosure () -> UserSessions) -> UserSessions {
        get { self[key] ?? value() }
        _modify { yield &byApp[key.app, default: [:]][key.user, default: value()] }
    }
}
