import IMockCore

extension StoreWriter {
    /// The settings columns of `apps`, in the order of ``AppSettings/rowValues(app:)``.
    static let settingsColumns = [
        "registration_mode", "default_token_ttl_seconds", "service_enabled", "active_user_limit",
        "rest_rate_limit_per_second", "login_policy",
    ]

    static let upsertAppSQL: String = {
        let columns = ["app_key", "uuid", "client_id", "client_secret", "signing_key", "next_token_id"] + settingsColumns
        return upsertSQL(table: "apps", columns: columns, key: ["app_key"])
    }()

    static let upsertUserSQL = upsertSQL(
        table: "users",
        columns: [
            "app_key", "username", "uuid", "password_iterations", "password_salt", "password_hash", "nickname",
            "activated", "created_ms", "modified_ms", "sequence", "minimum_token_id",
        ],
        key: ["app_key", "username"])

    static let updateSettingsSQL =
        "UPDATE apps SET " + settingsColumns.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE app_key = ?"

    /// `INSERT … ON CONFLICT (key) DO UPDATE SET` every other column.
    private static func upsertSQL(table: String, columns: [String], key: [String]) -> String {
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let updates = columns.filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders)) "
            + "ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE SET \(updates)"
    }

    /// The app row is upserted (never deleted, so nothing cascades to its queues or active
    /// users); its users and revoked ids are replaced.
    func replaceApp(_ state: SeedApp) throws(StoreError) {
        let owner = "app \(state.appKey)"
        let checked: SeedApp
        do {
            checked = try SeedDocument(apps: [state]).validated().apps[0]
        } catch {
            throw .invalidChange("\(owner) breaks the seed rules: \(error)")
        }
        let nextTokenID = try StoredValues.required(checked.nextTokenID, "nextTokenId", of: owner)
        let header: [SQLiteValue] = [
            .text(checked.appKey.description), .text(try StoredValues.required(checked.uuid, "uuid", of: owner)),
            .text(try StoredValues.required(checked.clientID, "clientId", of: owner)),
            .text(try StoredValues.required(checked.clientSecret, "clientSecret", of: owner)),
            .blob(try StoredValues.required(checked.signingKey, "signingKey", of: owner)),
            try StoredValues.counter(nextTokenID, "nextTokenId of \(owner)"),
        ]
        try database.run(StoreWriter.upsertAppSQL, header + checked.settings.rowValues(app: checked.appKey))
        try run("DELETE FROM users WHERE app_key = ?", checked.appKey)
        try run("DELETE FROM revoked_tokens WHERE app_key = ?", checked.appKey)
        for user in checked.users {
            try database.run(StoreWriter.upsertUserSQL, try user.rowValues(app: checked.appKey))
        }
        for tokenID in checked.revokedTokenIDs {
            try run(
                "INSERT INTO revoked_tokens (app_key, token_id) VALUES (?, ?)", checked.appKey,
                try StoredValues.counter(tokenID, "revoked token id of \(owner)"))
        }
    }

    func updateSettings(_ settings: AppSettings, of app: AppKey) throws(StoreError) {
        try database.run(StoreWriter.updateSettingsSQL, settings.rowValues(app: app) + [.text(app.description)])
        try requireOneRow(changedIn: app)
    }

    func advanceTokenCounter(of app: AppKey, to next: UInt64) throws(StoreError) {
        try run(
            "UPDATE apps SET next_token_id = ?2 WHERE app_key = ?1", app,
            try StoredValues.counter(next, "nextTokenId of app \(app)"))
        try requireOneRow(changedIn: app)
    }

    /// An update of an app the store does not hold means the store missed the app's creation.
    private func requireOneRow(changedIn app: AppKey) throws(StoreError) {
        guard database.changes == 1 else { throw .invalidChange("the store holds no app \(app) to update") }
    }
}
