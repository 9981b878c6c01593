extension SessionEngine {
    /// Puts back what a store kept of the engine (a restarted server, docs/PERSISTENCE.md):
    /// the offline queues (each in delivery order; empty ones are skipped), the distinct active
    /// users per app and the id the next message gets. Live sessions are not restored: devices
    /// log in again. Nothing is recorded in ``changeLog``.
    public mutating func restore(
        offlineQueues queues: [(app: AppKey, recipient: String, messages: [ChatMessage])],
        activeUsers active: [AppKey: [String]], nextMessageID: UInt64
    ) {
        for queue in queues where !queue.messages.isEmpty {
            offlineQueues[UserKey(app: queue.app, user: queue.recipient)] = OfflineQueue(queue.messages)
        }
        for (app, users) in active where !users.isEmpty { activeUsers[app] = Set(users) }
        nextMessageSerial = max(1, nextMessageID)
    }

    /// The id the next message gets (message ids are decimal serials).
    public var nextMessageID: UInt64 { nextMessageSerial }
}
