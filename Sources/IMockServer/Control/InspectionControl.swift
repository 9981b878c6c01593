import IMockCore
import IMockWire
import IMockNet

/// Inspection: live sessions of an app and the sent-journal (kicks, token events, closes).
enum InspectionControl {
    static let routes: [ControlRoute] = [
        ControlRoute("GET", "/_imock/apps/{org}/{app}/sessions") { context, request throws(ControlError) in
            let key = try request.appKey(in: context.directory)
            return ["sessions": .array(context.domain.value.engine.sessions(in: key).map(json))]
        },
        ControlRoute("GET", "/_imock/journal") { context, request throws(ControlError) in
            try request.allowQuery(["app", "sinceMs"])
            let since = try request.intQuery("sinceMs", in: ValueLimits.epochMs)
            let app = try request.appQuery(in: context.directory)
            let entries = context.sessions.journal.filter { entry in
                (since.map { entry.atMs >= $0 } ?? true) && (app.map { entry.app == $0 } ?? true)
            }
            return ["entries": .array(entries.map(json))]
        },
    ]

    static func json(_ session: SessionInfo) -> JSONValue {
        [
            "connection": .int(Int64(session.connection.rawValue)),
            "user": .string(session.user),
            "resource": .string(session.device.resource),
            "deviceUUID": .string(session.device.uuid),
            "deviceName": .string(session.device.name),
            "platform": .string(session.device.platform.resourcePrefix),
            "group": .string(session.device.platform.groupName),
            "loginTimeMs": .int(session.device.loginTimeMs),
            "autoLogin": .bool(session.autoLogin),
            "tokenExpiresAtMs": session.tokenExpiresAtMs.map { .int($0) } ?? .null,
        ]
    }

    static func json(_ entry: JournalEntry) -> JSONValue {
        let event: JSONValue
        if case .closed(let code, let reason) = entry.event {
            event = ["type": "closed", "code": .int(Int64(code)), "reason": .string(reason)]
        } else {
            event = ["type": "frame", "frame": ServerFrame(journal: entry.event)?.json ?? .null]
        }
        return [
            "atMs": .int(entry.atMs),
            "connection": .int(Int64(entry.connection.rawValue)),
            "dialect": entry.dialect.map { .string($0) } ?? .null,
            "app": entry.app.map { .string($0.description) } ?? .null,
            "user": entry.user.map { .string($0) } ?? .null,
            "resource": entry.resource.map { .string($0) } ?? .null,
            "event": event,
        ]
    }
}
