import IMockCore

extension StoredState {
    /// Whether the store holds a server's state: apps, or the start state a server's first
    /// start saves in the same commit as its apps (``StoreChange/firstStart(of:clock:)``). A
    /// store migrated from schema version 1 has apps but no start state yet.
    public var holdsServerState: Bool { startState != nil || !document.apps.isEmpty }

    /// The checkpoints by app and name, as ``Domain/checkpoints`` holds them.
    public var checkpointsByApp: [AppKey: [String: SeedApp]] {
        var byApp: [AppKey: [String: SeedApp]] = [:]
        for checkpoint in checkpoints { byApp[checkpoint.state.appKey, default: [:]][checkpoint.name] = checkpoint.state }
        return byApp
    }

    /// Puts the stored offline queues, active users and next message id into `engine`.
    public func restore(into engine: inout SessionEngine) {
        engine.restore(
            offlineQueues: offlineQueues.map { ($0.app, $0.recipient, $0.messages) }, activeUsers: activeUsers,
            nextMessageID: nextMessageSerial ?? 1)
    }
}

extension StoreChange {
    /// What the first start on an empty store writes, in one commit: every app whole, the
    /// start state `reset` returns to, the clock and the next message id.
    public static func firstStart(of domain: Domain, clock: StoredClock) -> [StoreChange] {
        domain.directory.appKeys.compactMap { key in domain.directory.apps[key].map { .appReplaced(SeedApp.export($0)) } }
            + serverState(of: domain, clock: clock)
    }

    /// The start state, the clock and the next message id: what the first start writes besides
    /// the apps, and what a server writes at its first start on a store that has apps but not
    /// these (migrated from schema version 1).
    public static func serverState(of domain: Domain, clock: StoredClock) -> [StoreChange] {
        [.startStateSaved(domain.startSeed), .clockChanged(clock), .nextMessageSerial(domain.engine.nextMessageID)]
    }
}
