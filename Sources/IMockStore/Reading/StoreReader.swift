import IMockCommon
import IMockCore

/// Reads the stored rows back into domain values, in the orders ``StoredState`` documents.
struct StoreReader {
    let database: SQLiteDatabase

    /// Every app, sorted by key, with its users (sorted by username) and revoked ids
    /// (ascending): the order of ``SeedDocument/export(_:)``.
    func apps() throws(StoreError) -> [SeedApp] {
        var apps: [AppKey: SeedApp] = [:]
        let columns = ["app_key", "uuid", "client_id", "client_secret", "signing_key", "next_token_id"]
            + StoreWriter.settingsColumns
        try database.query("SELECT \(columns.joined(separator: ", ")) FROM apps") { row throws(StoreError) in
            let key = try StoredValues.appKey(try row.text(0))
            guard let registrationMode = RegistrationMode(rawValue: try row.text(6)) else {
                throw .corruptRecord("app \(key) has registration mode \(try row.text(6))")
            }
            let settings = AppSettings(
                registrationMode: registrationMode, defaultTokenTTLSeconds: try row.int64(7),
                serviceEnabled: try row.bool(8), activeUserLimit: try row.optionalInt64(9).map { Int($0) },
                restRateLimitPerSecond: try row.optionalInt64(10).map { Int($0) },
                loginPolicy: try SeedText.decodePolicy(try row.text(11), of: key))
            apps[key] = SeedApp(
                appKey: key, uuid: try row.text(1), settings: settings, clientID: try row.text(2),
                clientSecret: try row.text(3), signingKey: try row.blob(4),
                nextTokenID: try StoredValues.counter(try row.int64(5), "nextTokenId of app \(key)"))
        }
        try users(into: &apps)
        try database.query("SELECT app_key, token_id FROM revoked_tokens") { row throws(StoreError) in
            let key = try StoredValues.appKey(try row.text(0))
            apps[key]?.revokedTokenIDs.append(try StoredValues.counter(try row.int64(1), "a revoked token id of app \(key)"))
        }
        return apps.keys.sorted().compactMap { key in
            apps[key].map { app in
                var sorted = app
                sorted.users.sort { $0.username < $1.username }
                sorted.revokedTokenIDs.sort()
                return sorted
            }
        }
    }

    private func users(into apps: inout [AppKey: SeedApp]) throws(StoreError) {
        let sql = """
            SELECT app_key, username, uuid, password_iterations, password_salt, password_hash, nickname, activated,
                created_ms, modified_ms, sequence, minimum_token_id
            FROM users
            """
        try database.query(sql) { row throws(StoreError) in
            let key = try StoredValues.appKey(try row.text(0))
            let username = try row.text(1)
            var password: SeedPassword?
            if let iterations = try row.optionalInt64(3) {
                password = .hashed(
                    SeedPasswordHash(iterations: Int(clamping: iterations), salt: try row.blob(4), hash: try row.blob(5)))
            }
            let user = SeedUser(
                username: username, uuid: try row.text(2), password: password, nickname: try row.optionalText(6),
                activated: try row.bool(7), createdMs: try row.int64(8), modifiedMs: try row.int64(9),
                sequence: try row.int64(10),
                minimumTokenID: try StoredValues.counter(try row.int64(11), "minimumTokenId of \(key)/\(username)"))
            apps[key]?.users.append(user)
        }
    }

    /// The non-empty queues, sorted by app and recipient, each in position order.
    func offlineQueues() throws(StoreError) -> [StoredOfflineQueue] {
        var queues: [StoredOfflineQueue] = []
        let sql = """
            SELECT app_key, recipient, message_id, sender, body, timestamp_ms FROM offline_messages
            ORDER BY app_key, recipient, position
            """
        try database.query(sql) { row throws(StoreError) in
            let key = try StoredValues.appKey(try row.text(0))
            let recipient = try row.text(1)
            let message = ChatMessage(
                messageId: try row.text(2), from: try row.text(3), to: recipient, text: try row.text(4),
                timestamp: try row.int64(5))
            if let last = queues.last, last.app == key, last.recipient == recipient {
                queues[queues.count - 1].messages.append(message)
            } else {
                queues.append(StoredOfflineQueue(app: key, recipient: recipient, messages: [message]))
            }
        }
        return queues.sorted { ($0.app, $0.recipient) < ($1.app, $1.recipient) }
    }

    func activeUsers() throws(StoreError) -> [AppKey: [String]] {
        var users: [AppKey: [String]] = [:]
        try database.query("SELECT app_key, username FROM active_users ORDER BY app_key, username") { row throws(StoreError) in
            users[try StoredValues.appKey(try row.text(0)), default: []].append(try row.text(1))
        }
        return users.mapValues { $0.sorted() }
    }

    func checkpoints() throws(StoreError) -> [StoredCheckpoint] {
        var checkpoints: [StoredCheckpoint] = []
        try database.query("SELECT app_key, name, state FROM checkpoints") { row throws(StoreError) in
            let key = try StoredValues.appKey(try row.text(0))
            let name = try row.text(1)
            let what = "checkpoint \(name) of app \(key)"
            guard let state = try SeedText.decode(try row.text(2), what: what).apps.first, state.appKey == key else {
                throw .corruptRecord("\(what) does not hold that app's state")
            }
            checkpoints.append(StoredCheckpoint(name: name, state: state))
        }
        return checkpoints.sorted { ($0.state.appKey, $0.name) < ($1.state.appKey, $1.name) }
    }

    /// The clock, the next message serial and the start state.
    func serverState(into state: inout StoredState) throws(StoreError) {
        let sql = "SELECT clock_offset_ms, clock_frozen_at_ms, next_message_serial, start_state FROM server_state WHERE id = 1"
        try database.query(sql) { row throws(StoreError) in
            if let offset = try row.optionalInt64(0) {
                state.clock = StoredClock(offsetMs: offset, frozenAtMs: try row.optionalInt64(1))
            }
            state.nextMessageSerial = try row.optionalInt64(2).map { (serial) throws(StoreError) in
                try StoredValues.counter(serial, "the next message serial")
            }
            state.startState = try row.optionalText(3).map { (text) throws(StoreError) in
                try SeedText.decode(text, what: "the start state")
            }
        }
    }
}
