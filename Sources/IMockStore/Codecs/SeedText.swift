import IMockCore

/// Values the store keeps as seed JSON (docs/SEED.md) in a TEXT column — checkpoints, the
/// start state, an app's login policy — written compactly and read back through the seed
/// parser, so a stored value gets the same checks as a seed file.
enum SeedText {
    /// `document` as compact seed JSON.
    static func encode(_ document: SeedDocument) -> String { document.jsonValue.encodedString }

    /// The document in `text`; `what` names the row for the error.
    static func decode(_ text: String, what: String) throws(StoreError) -> SeedDocument {
        do {
            return try SeedDocument.parse(bytes: Array(text.utf8))
        } catch {
            throw .corruptRecord("\(what): \(error)")
        }
    }

    /// The `loginPolicy` member of the seed format for `policy`.
    static func encode(_ policy: LoginPolicy, of app: AppKey) -> String {
        let entry = SeedApp(appKey: app, settings: AppSettings(loginPolicy: policy))
        let json = SeedDocument(apps: [entry]).jsonValue["apps"]?.arrayValue?.first?["loginPolicy"]
        return (json ?? .null).encodedString
    }

    /// The policy stored as `text` for `app`, checked like a seed's `loginPolicy`.
    static func decodePolicy(_ text: String, of app: AppKey) throws(StoreError) -> LoginPolicy {
        let what = "the login policy of app \(app)"
        let policy: JSONValue
        do {
            policy = try JSONValue.parse(text)
        } catch {
            throw .corruptRecord("\(what): \(error)")
        }
        let document: JSONValue = .object([
            ("version", .int(SeedDocument.currentVersion)),
            ("apps", .array([.object([("appKey", .string(app.description)), ("loginPolicy", policy)])])),
        ])
        guard let entry = try decode(document.encodedString, what: what).apps.first else {
            throw .corruptRecord("\(what): no app in the document")
        }
        return entry.settings.loginPolicy
    }
}
