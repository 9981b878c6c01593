import IMockCore

extension StoreWriter {
    /// Appends `messages` (in order) to the back of the queue, or puts them before its first
    /// message. Positions only order a queue: the back continues after the highest, the front
    /// goes below the lowest (negative positions are fine).
    func queue(_ messages: [ChatMessage], for recipient: String, in app: AppKey, at end: OfflineQueueEnd) throws(StoreError) {
        guard !messages.isEmpty else { return }
        if let stray = messages.first(where: { $0.to != recipient }) {
            throw .invalidChange("message \(stray.messageId) is to \(stray.to), not to the queue's owner \(recipient)")
        }
        let first: Int64
        switch end {
        case .back:
            let highest = try database.scalarInt64(
                "SELECT max(position) FROM offline_messages WHERE app_key = ? AND recipient = ?",
                [.text(app.description), .text(recipient)])
            first = (highest ?? 0) + 1
        case .front:
            let lowest = try database.scalarInt64(
                "SELECT min(position) FROM offline_messages WHERE app_key = ? AND recipient = ?",
                [.text(app.description), .text(recipient)])
            first = (lowest ?? 1) - Int64(messages.count)
        }
        for (offset, message) in messages.enumerated() {
            try run(
                """
                INSERT INTO offline_messages (app_key, recipient, position, message_id, sender, body, timestamp_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, app, .text(recipient), .integer(first + Int64(offset)), .text(message.messageId),
                .text(message.from), .text(message.text), .integer(message.timestamp))
        }
    }
}
