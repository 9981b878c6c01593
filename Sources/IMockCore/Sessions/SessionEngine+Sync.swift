extension SessionEngine {
    /// Offline start, every queued message in order, offline finish; nothing when the queue is
    /// empty. Messages stay queued until acked, so a connection that drops before acking gets
    /// them again at its next login.
    func offlineSync(_ connection: ConnectionID, key: UserKey) -> [SessionOutput] {
        guard let queue = offlineQueues[key]?.messages, !queue.isEmpty else { return [] }
        var outputs: [SessionOutput] = [.push(connection, .offlineStart(count: queue.count))]
        outputs.reserveCapacity(queue.count + 2)
        for message in queue { outputs.append(.push(connection, .message(message))) }
        outputs.append(.push(connection, .offlineFinish))
        return outputs
    }

    /// Sync start then finish per type; a type in `failing` finishes with an error.
    func dataSync(_ connection: ConnectionID, types: [SyncType], failing: Set<SyncType>) -> [SessionOutput] {
        types.flatMap { type -> [SessionOutput] in
            [
                .push(connection, .syncStart(type)),
                .push(connection, .syncFinish(type, error: failing.contains(type) ? .syncFailed(type) : nil)),
            ]
        }
    }
}
