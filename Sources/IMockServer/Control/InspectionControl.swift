import IMockCore
import IMockWire
import IMockNet

/// Inspection: live sessions of an app and the sent-journal (kicks, token events, closes).
enum InspectionControl {
    static let routes: [ControlRoute] = [
        ControlRoute("GET", "/_imock/apps/{org}/{app}/sessions") { context, request throws(ControlError) in
            let key = try request.appKey(in: context.directory)
            return [
                "sessions": .array(
                    context.domain.value.engine.sessions(in: key).map {
                        json($0, dialect: context.sessions.dialectName(of: $0.connection))
                    })
            ]
        },
        ControlRoute("GET", "/_imock/journal") { context, request throws(ControlError) in
            try request.allowQuery(["app", "sinceMs", "afterSeq"])
            let since = try request.intQuery("sinceMs", in: ValueLimits.epochMs)
            let after = try request.intQuery("afterSeq", in: ValueLimits.counter)
            let app = try request.appQuery(in: context.directory)
            let found = context.sessions.journal(afterSequence: after, sinceMs: since, app: app)
            return ["entries": .array(found.map { json($0.entry, sequence: $0.sequence) })]
        },
    ]

    static func json(_ session: SessionInfo, dialect: String?) -> JSONValue {
        [
            "connection": .int(Int64(session.connection.rawValue)),
            "dialect": dialect.map { .string($0) } ?? .null,
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

    /// A journal entry as `GET /_imock/journal` and `/_imock/events` give it, with its number.
    static func json(_ entry: JournalEntry, sequence: Int64) -> JSONValue {
        let fields = json(entry)
        guard case .object(let members) = fields else { return fields }
        return .object([(key: "seq", value: .int(sequence))] + members)
    }

    /// A journal entry's fields (what a recording keeps of it has no number).
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
            "app": entry.app.map { .string($0.description) } ?? .null,
            "user": entry.user.map { .string($0) } ?? .null,
            "resource": entry.resource.map { .string($0) } ?? .null,
            "dialect": entry.dialect.map { .string($0) } ?? .null,
            "event": event,
        ]
    }
}
