import IMockCore

/// App switches (docs/CONTROL-API.md § State, App switches): read and change an app's
/// settings. `serviceEnabled: false` kicks every live session of the app with 305 and the
/// engine refuses further logins with 305; `activeUserLimit` refuses logins of new distinct
/// users beyond it with 8; the other settings apply from the next login or request on.
enum AppControl {
    static let routes: [ControlRoute] = [
        ControlRoute("GET", "/_imock/apps/{org}/{app}/settings") { server, request throws(ControlError) in
            let key = try request.appKey(in: server.rest.directory)
            return answer(key, in: server, kicked: [])
        },
        ControlRoute("POST", "/_imock/apps/{org}/{app}/settings") { server, request throws(ControlError) in
            try request.allowOnly(Set(AppSettingsJSON.fields))
            let key = try request.appKey(in: server.rest.directory)
            guard let app = server.rest.directory.apps[key] else { throw .notFound("no app \(key)") }
            let settings = try AppSettingsJSON.applying(request.body, to: app.settings, of: key)
            do throws(DirectoryError) {
                try server.rest.directory.updateSettings(settings, of: key)
            } catch {
                switch error {
                case .invalidSettings(let text): throw .badRequest(text)
                default: throw .badRequest("\(error)")
                }
            }
            var kicked: [String] = []
            if !settings.serviceEnabled {
                kicked = server.hub.engine.sessions(in: key).map(\.device.resource)
                let now = server.clock.nowMs
                server.hub.run { $0.appServiceDisabled(app: key, nowMs: now) }
            }
            return answer(key, in: server, kicked: kicked)
        },
    ]

    /// `{"app", "settings", "activeUserCount", "kicked"}`.
    private static func answer(_ key: AppKey, in server: MockServer, kicked: [String]) -> JSONValue {
        let settings = server.rest.directory.apps[key]?.settings ?? AppSettings()
        return [
            "app": .string(key.description),
            "settings": AppSettingsJSON.json(settings, of: key),
            "activeUserCount": .int(Int64(server.hub.engine.activeUserCount(in: key))),
            "kicked": .array(kicked.map { .string($0) }),
        ]
    }
}
