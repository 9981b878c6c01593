import IMockCore

extension StoredState {
    /// Whether a server has started on this store: its first start saves the start state in
    /// the same commit as the apps (``StoreChange/firstStart(of:clock:)``), so a store without
    /// one holds nothing a server wrote.
    public var isInitialized: Bool { startState != nil }

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
            + [.startStateSaved(domain.startSeed), .clockChanged(clock), .nextMessageSerial(domain.engine.nextMessageID)]
    }
}
