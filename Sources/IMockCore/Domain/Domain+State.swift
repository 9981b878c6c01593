extension Domain {
    /// Why the live side of an app ends when its stored state is replaced.
    static let stateReplacedReason = "the app's state was replaced by the control API"

    /// Adds every app `document` names that does not exist and replaces every one that does;
    /// replaced apps lose their live side (``endLiveSide(of:users:nowMs:)``). The document is
    /// validated whole first: an invalid one changes nothing.
    public mutating func seed(_ document: SeedDocument, nowMs: Int64) throws(DomainError)
        -> (added: [AppKey], replaced: [AppKey], outputs: [SessionOutput])
    {
        var next = directory
        var added: [AppKey] = []
        var replaced: [(key: AppKey, users: [String])] = []
        for app in document.apps {
            if next.apps[app.appKey] == nil {
                added.append(app.appKey)
            } else {
                replaced.append((app.appKey, usernames(of: app.appKey)))
            }
            do throws(SeedError) {
                try next.restoreApp(from: app, nowMs: nowMs)
            } catch {
                throw .unloadableState(error)
            }
        }
        directory = next
        var outputs: [SessionOutput] = []
        for (key, users) in replaced { outputs += endLiveSide(of: key, users: users, nowMs: nowMs) }
        return (added.sorted(), replaced.map(\.key).sorted(), outputs)
    }

    /// Every app back to its start state; apps added later are removed. Returns the apps kept
    /// and removed, and the outputs.
    public mutating func resetAll(nowMs: Int64) throws(DomainError)
        -> (reset: [AppKey], removed: [AppKey], outputs: [SessionOutput])
    {
        let before = directory.appKeys.map { ($0, usernames(of: $0)) }
        var log = directory.changeLog
        do throws(SeedError) {
            directory = try startSeed.makeDirectory(settings: directory.settings, nowMs: nowMs)
        } catch {
            throw .unloadableState(error)
        }
        for key in Set(before.map(\.0) + directory.appKeys).sorted() { log.record(.app(key)) }
        directory.changeLog = log
        var outputs: [SessionOutput] = []
        for (key, users) in before { outputs += endLiveSide(of: key, users: users, nowMs: nowMs) }
        let kept = Set(directory.appKeys)
        return (directory.appKeys, before.map(\.0).filter { !kept.contains($0) }, outputs)
    }

    /// App `key` back to its start state.
    public mutating func reset(_ key: AppKey, nowMs: Int64) throws(DomainError) -> (users: Int, outputs: [SessionOutput]) {
        guard let start = startSeed.apps.first(where: { $0.appKey == key }) else { throw .noStartState(key) }
        return (start.users.count, try replace(key, with: start, nowMs: nowMs))
    }

    /// Removes app `key` (created at start-up or later): its live side ends as when its state is
    /// replaced (``endLiveSide(of:users:nowMs:)``: every session kicked with 207), then its stored
    /// state and checkpoints are gone. A global reset brings back an app of the start state.
    public mutating func removeApp(_ key: AppKey, nowMs: Int64) throws(DomainError) -> [SessionOutput] {
        _ = try app(key)
        let outputs = endLiveSide(of: key, users: usernames(of: key), nowMs: nowMs)
        directory.apps[key] = nil
        directory.changeLog.record(.app(key))
        for name in checkpointNames(of: key) { changeLog.record(.checkpoint(key, name: name)) }
        checkpoints[key] = nil
        return outputs
    }

    /// The complete current state of app `key`.
    public func snapshot(_ key: AppKey) throws(DomainError) -> SeedApp {
        SeedApp.export(try app(key))
    }

    /// Saves app `key`'s complete state as checkpoint `name`; true when it replaced one.
    public mutating func saveCheckpoint(_ name: String, of key: AppKey) throws(DomainError) -> (users: Int, replaced: Bool) {
        let state = try snapshot(key)
        let replaced = checkpoints[key]?.updateValue(state, forKey: name) != nil
        if !replaced { checkpoints[key, default: [:]][name] = state }
        changeLog.record(.checkpoint(key, name: name))
        return (state.users.count, replaced)
    }

    /// Puts checkpoint `name` of app `key` back.
    public mutating func restoreCheckpoint(_ name: String, of key: AppKey, nowMs: Int64) throws(DomainError)
        -> (users: Int, outputs: [SessionOutput])
    {
        _ = try app(key)
        guard let state = checkpoints[key]?[name] else { throw .noCheckpoint(name, key) }
        return (state.users.count, try replace(key, with: state, nowMs: nowMs))
    }

    /// The checkpoint names of app `key`, sorted.
    public func checkpointNames(of key: AppKey) -> [String] {
        (checkpoints[key] ?? [:]).keys.sorted()
    }

    /// Replaces app `key` with `state` and ends its live side; on error nothing changes.
    mutating func replace(_ key: AppKey, with state: SeedApp, nowMs: Int64) throws(DomainError) -> [SessionOutput] {
        let users = usernames(of: key)
        do throws(SeedError) {
            try directory.restoreApp(from: state, nowMs: nowMs)
        } catch {
            throw .unloadableState(error)
        }
        return endLiveSide(of: key, users: users, nowMs: nowMs)
    }

    /// What happens to the live side of an app whose stored state is replaced (reset, restore,
    /// seed over an existing app): every session is kicked with 207 — a client must not log in
    /// again by itself, since its user and token may not exist in the new state — every offline
    /// queue and remembered last-login device is dropped (also of `users`, the usernames the app
    /// had before), and the distinct-active-user count starts again from zero. The REST rate
    /// limiter and the app's faults are left alone.
    mutating func endLiveSide(of app: AppKey, users: [String], nowMs: Int64) -> [SessionOutput] {
        let live = Self.unique(engine.sessions(in: app).map(\.user))
        var outputs: [SessionOutput] = []
        // Earliest login first, as the engine lists sessions.
        for user in live {
            outputs += engine.kick(
                app: app, user: user, resource: nil, code: KickCode.userRemoved.rawValue, reason: Self.stateReplacedReason,
                by: nil, nowMs: nowMs)
        }
        // No sessions are left, so this only drops the offline queue and last-login device.
        for user in Self.unique(live + users.sorted()) {
            outputs += engine.userDeleted(app: app, user: user, nowMs: nowMs)
        }
        engine.resetActiveUsers(in: app)
        return outputs
    }

    private func usernames(of app: AppKey) -> [String] {
        directory.apps[app].map { Array($0.users.keys) } ?? []
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }
}
