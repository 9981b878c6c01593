import IMockCore
import IMockNet

/// App switches (docs/CONTROL-API.md § State, App switches): read and change an app's
/// settings. `serviceEnabled: false` kicks every live session of the app with 305 and the
/// engine refuses further logins with 305; `activeUserLimit` refuses logins of new distinct
/// users beyond it with 8; the other settings apply from the next login or request on.
enum AppControl {
    static let routes: [ControlRoute] = [
        ControlRoute("GET", "/_imock/apps/{org}/{app}/settings") { context, request throws(ControlError) in
            let key = try request.appKey(in: context.directory)
            return answer(key, in: context, kicked: [])
        },
        ControlRoute("POST", "/_imock/apps/{org}/{app}/settings") { context, request throws(ControlError) in
            try request.allowOnly(Set(AppSettingsJSON.fields))
            let key = try request.appKey(in: context.directory)
            let current = try context.run { domain throws(DomainError) in try domain.app(key).settings }
            let settings = try AppSettingsJSON.applying(request.body, to: current, of: key)
            let now = context.nowMs
            let change = try context.run { domain throws(DomainError) in
                try domain.updateSettings(settings, of: key, nowMs: now)
            }
            context.perform(change.outputs)
            return answer(key, in: context, kicked: change.kicked)
        },
    ]

    /// `{"app", "settings", "activeUserCount", "kicked"}`.
    private static func answer(_ key: AppKey, in context: ControlContext, kicked: [String]) -> JSONValue {
        let settings = context.directory.apps[key]?.settings ?? AppSettings()
        return [
            "app": .string(key.description),
            "settings": AppSettingsJSON.json(settings, of: key),
            "activeUserCount": .int(Int64(context.domain.value.engine.activeUserCount(in: key))),
            "kicked": .array(kicked.map { .string($0) }),
        ]
    }
}
