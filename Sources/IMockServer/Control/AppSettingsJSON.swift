import IMockCore

/// An app's settings as JSON, in the member names and forms of the seed format
/// (docs/SEED.md), read with the seed format's own parser so that a setting means the same
/// thing in a seed file and in a control-API call.
enum AppSettingsJSON {
    /// The settings members, in seed order.
    static let fields = [
        "registrationMode", "defaultTokenTTLSeconds", "serviceEnabled", "activeUserLimit", "restRateLimitPerSecond",
        "loginPolicy",
    ]
    /// Members that may be `null` (= unlimited).
    static let nullableFields: Set<String> = ["activeUserLimit", "restRateLimitPerSecond"]

    /// `{"registrationMode": …, …, "loginPolicy": {…}}`.
    static func json(_ settings: AppSettings, of key: AppKey) -> JSONValue {
        .object(members(settings, of: key).filter { fields.contains($0.key) })
    }

    /// `settings` with the members of `body` applied; every member of `body` must be one of
    /// ``fields``. Errors name the member: `loginPolicy.deviceLimits.mobile: must not be negative`.
    static func applying(_ body: JSONValue, to settings: AppSettings, of key: AppKey) throws(ControlError) -> AppSettings {
        var merged = members(settings, of: key)
        for (name, value) in body.objectValue ?? [] {
            if value.isNull, !nullableFields.contains(name) { throw .badRequest("'\(name)' must not be null") }
            guard let index = merged.firstIndex(where: { $0.key == name }) else {
                throw .badRequest("unknown field '\(name)'; allowed: \(fields.joined(separator: ", "))")
            }
            merged[index].value = value
        }
        let document: JSONValue = .object([
            ("version", .int(SeedDocument.currentVersion)), ("apps", .array([.object(merged)])),
        ])
        let parsed: SeedDocument
        do throws(SeedError) {
            parsed = try SeedDocument.parse(bytes: document.encoded())
        } catch {
            let prefix = "apps[0]."
            let path = error.path.hasPrefix(prefix) ? String(error.path.dropFirst(prefix.count)) : error.path
            throw .badRequest(path.isEmpty ? error.message : "\(path): \(error.message)")
        }
        guard let app = parsed.apps.first else { throw .badRequest("the settings could not be read") }
        return app.settings
    }

    /// The app's members as a seed app with only key and settings writes them.
    private static func members(_ settings: AppSettings, of key: AppKey) -> [(key: String, value: JSONValue)] {
        let app = SeedDocument(apps: [SeedApp(appKey: key, settings: settings)]).jsonValue["apps"]?.arrayValue?.first
        return (app?.objectValue ?? []).filter { $0.key == "appKey" || fields.contains($0.key) }
    }
}
