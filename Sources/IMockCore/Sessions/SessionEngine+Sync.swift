extension SessionEngine {
    /// `offline.start`, every queued message in order, `offline.finish`; nothing when the queue
    /// is empty. Messages stay queued until acked, so a connection that drops before acking gets
    /// them again at its next login.
    func offlineSync(_ connection: ConnectionID, key: UserKey) -> [SessionEffect] {
        guard let queue = offlineQueues[key], !queue.isEmpty else { return [] }
        var effects: [SessionEffect] = [.send(connection, .offlineStart(count: queue.count))]
        effects.reserveCapacity(queue.count + 2)
        for message in queue { effects.append(.send(connection, .message(message))) }
        effects.append(.send(connection, .offlineFinish))
        return effects
    }

    /// `sync.start` then `sync.finish` per type; a type in the app's failing set finishes with 303.
    func dataSync(_ connection: ConnectionID, types: [SyncType], app: AppKey) -> [SessionEffect] {
        let failing = faults(for: app).failingSyncTypes
        return types.flatMap { type -> [SessionEffect] in
            let error = failing.contains(type)
                ? FrameErrorBody(
                    code: ProtocolErrorCode.serverUnknownError.rawValue,
                    message: "data sync of \(type.rawValue) failed")
                : nil
            return [.send(connection, .syncStart(type: type)), .send(connection, .syncFinish(type: type, error: error))]
        }
    }
}
