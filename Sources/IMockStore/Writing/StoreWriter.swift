import IMockCommon
import IMockCore

/// Writes ``StoreChange``s into an open transaction, a statement or a few per change, all
/// through the database's statement cache. The caller's transaction makes a batch all or
/// nothing.
struct StoreWriter {
    let database: SQLiteDatabase

    /// Writes `change`.
    func write(_ change: StoreChange) throws(StoreError) {
        switch change {
        case .appReplaced(let state): try replaceApp(state)
        case .appSettingsChanged(let app, let settings): try updateSettings(settings, of: app)
        case .appRemoved(let app): try run("DELETE FROM apps WHERE app_key = ?", app)
        case .userUpserted(let app, let user): try database.run(StoreWriter.upsertUserSQL, try user.rowValues(app: app))
        case .userRemoved(let app, let username):
            try run("DELETE FROM users WHERE app_key = ? AND username = ?", app, .text(username))
        case .tokenCounterAdvanced(let app, let next): try advanceTokenCounter(of: app, to: next)
        case .tokenRevoked(let app, let tokenID):
            try run(
                "INSERT OR IGNORE INTO revoked_tokens (app_key, token_id) VALUES (?, ?)", app,
                try StoredValues.counter(tokenID, "revoked token id of app \(app)"))
        case .offlineMessagesQueued(let app, let recipient, let messages, let end):
            try queue(messages, for: recipient, in: app, at: end)
        case .offlineMessageRemoved(let app, let recipient, let messageID):
            try run(
                "DELETE FROM offline_messages WHERE app_key = ? AND recipient = ? AND message_id = ?", app,
                .text(recipient), .text(messageID))
        case .offlineQueueDropped(let app, let recipient):
            try run("DELETE FROM offline_messages WHERE app_key = ? AND recipient = ?", app, .text(recipient))
        case .offlineQueuesDropped(let app): try run("DELETE FROM offline_messages WHERE app_key = ?", app)
        case .nextMessageSerial(let next):
            try database.run(
                "UPDATE server_state SET next_message_serial = ? WHERE id = 1",
                [try StoredValues.counter(next, "next message serial")])
        case .activeUserAdded(let app, let username):
            try run("INSERT OR IGNORE INTO active_users (app_key, username) VALUES (?, ?)", app, .text(username))
        case .activeUsersReset(let app): try run("DELETE FROM active_users WHERE app_key = ?", app)
        case .checkpointSaved(let name, let state): try saveCheckpoint(state, name: name)
        case .checkpointRemoved(let app, let name):
            try run("DELETE FROM checkpoints WHERE app_key = ? AND name = ?", app, .text(name))
        case .startStateSaved(let document):
            try database.run("UPDATE server_state SET start_state = ? WHERE id = 1", [.text(SeedText.encode(document))])
        case .clockChanged(let clock):
            try database.run(
                "UPDATE server_state SET clock_offset_ms = ?, clock_frozen_at_ms = ? WHERE id = 1",
                [.integer(clock.offsetMs), .integer(orNull: clock.frozenAtMs)])
        }
    }

    /// Runs `sql` with the app key as its first parameter, then `values`.
    func run(_ sql: String, _ app: AppKey, _ values: SQLiteValue...) throws(StoreError) {
        try database.run(sql, [.text(app.description)] + values)
    }

    private func saveCheckpoint(_ state: SeedApp, name: String) throws(StoreError) {
        try run(
            """
            INSERT INTO checkpoints (app_key, name, state) VALUES (?, ?, ?)
            ON CONFLICT (app_key, name) DO UPDATE SET state = excluded.state
            """, state.appKey, .text(name), .text(SeedText.encode(SeedDocument(apps: [state]))))
    }
}
