import IMockCore

/// `POST /_imock/record` starts or stops recording an app; `GET /_imock/record` lists the
/// recordings, or returns one (`?app=`) in the recording format (docs/RECORD.md).
enum RecordControl {
    static let routes: [ControlRoute] = [
        ControlRoute("POST", "/_imock/record") { context, request throws(ControlError) in
            try request.allowOnly(["app", "action", "callbacks", "calls"])
            let key = try appKey(try request.requiredString("app"), in: context.directory)
            let action = try request.requiredString("action")
            for list in ["callbacks", "calls"] where action != list && request.body[list] != nil {
                throw .badRequest("'\(list)' goes with the action \"\(list)\"")
            }
            switch action {
            case "start":
                guard let app = try? context.directory.app(key) else { throw .notFound("no app \(key)") }
                context.sessions.recorder.start(app, nowMs: context.nowMs)
            case "stop":
                guard context.sessions.recorder.stop(key, nowMs: context.nowMs) != nil else {
                    throw .notFound("app \(key) has no recording")
                }
            case "callbacks":
                let event = JSONValue.object([("out", "callbacks"), ("callbacks", try callbacks(request.body["callbacks"]))])
                try record([event], of: key, in: context)
            case "calls":
                try record(try calls(request.body["calls"]), of: key, in: context)
            case let other:
                throw .badRequest("'action' must be \"start\", \"stop\", \"callbacks\" or \"calls\"; got '\(other)'")
            }
            return summary(context.sessions.recorder.recordings[key]!)
        },
        ControlRoute("GET", "/_imock/record") { context, request throws(ControlError) in
            try request.allowQuery(["app"])
            let recordings = context.sessions.recorder.recordings
            guard let key = try request.appQuery(in: context.directory) else {
                return ["recordings": .array(recordings.keys.sorted().map { summary(recordings[$0]!) })]
            }
            guard let recording = recordings[key] else { throw .notFound("app \(key) has no recording") }
            return recording.jsonValue
        },
    ]

    /// `[{"resource": "ios_p1", "name": "loginCompletion", "profile": "easemob"}, …]`: callbacks
    /// an app's SDK reported, in its profile's words (`profile` optional; `instance`, from 1,
    /// tells apart instances of one device that share its resource, in order of first login).
    private static func callbacks(_ value: JSONValue?) throws(ControlError) -> JSONValue {
        guard let items = value?.arrayValue else { throw .badRequest("'callbacks' must be an array") }
        for (index, item) in items.enumerated() {
            guard item["resource"]?.stringValue != nil, item["name"]?.stringValue != nil else {
                throw .badRequest("'callbacks[\(index)]' must be {\"resource\": string, \"name\": string}")
            }
            if let instance = item["instance"], (instance.intValue ?? 0) < 1 {
                throw .badRequest("'callbacks[\(index)].instance' must be an integer from 1")
            }
        }
        return .array(items.map { item in
            var members: [(key: String, value: JSONValue)] = [("resource", item["resource"]!), ("name", item["name"]!)]
            if let profile = item["profile"]?.stringValue { members.append(("profile", .string(profile))) }
            if let instance = item["instance"], instance != .int(1) { members.append(("instance", instance)) }
            return .object(members)
        })
    }

    /// Adds `events` to the app's running recording.
    private static func record(_ events: [JSONValue], of key: AppKey, in context: ControlContext) throws(ControlError) {
        guard context.sessions.recorder.recordings[key]?.isRecording == true else { throw .notFound("app \(key) is not being recorded") }
        for event in events { _ = context.sessions.recorder.call(event, app: key, nowMs: context.nowMs) }
    }

    /// `[{"resource": "ios_p1", "user": "alice", "device": {…}, "call": {"do": "login"}}, …]`: SDK
    /// calls a harness made, each a fixture step's words (docs/RECORD.md § SDK calls), as
    /// `{"in": "sdk", …}` events; `{"call": {"issueToken": …}}` needs no device.
    private static func calls(_ value: JSONValue?) throws(ControlError) -> [JSONValue] {
        guard let items = value?.arrayValue else { throw .badRequest("'calls' must be an array") }
        return try items.enumerated().map { (index, item) throws(ControlError) in
            guard let members = item.objectValue, let call = item["call"], call["do"]?.stringValue != nil || call["issueToken"]?.stringValue != nil,
                call["do"] == nil || (item["resource"]?.stringValue != nil && item["device"]?.objectValue != nil),
                item["instance"].map({ (1...100).contains($0.intValue ?? 0) }) ?? true
            else {
                throw .badRequest("'calls[\(index)]' must be {\"resource\", \"user\", \"device\", \"instance\"?: 1…100, \"call\": {\"do\", …}} or {\"call\": {\"issueToken\", …}}")
            }
            return .object([("in", "sdk")] + members.filter { ["resource", "user", "device", "instance", "call"].contains($0.key) })
        }
    }

    /// An existing app's key from the body's `app`.
    private static func appKey(_ text: String, in directory: Directory) throws(ControlError) -> AppKey {
        guard let key = try? AppKey(parsing: text) else {
            throw .badRequest("'app' must be an app key 'org#app'; got '\(text)'")
        }
        guard directory.apps[key] != nil else { throw .notFound("no app \(key)") }
        return key
    }

    /// A recording without its events.
    static func summary(_ recording: Recording) -> JSONValue {
        .object([
            ("app", .string(recording.app.description)), ("recording", .bool(recording.isRecording)),
            ("startedAtMs", .int(recording.startedAtMs)), ("stoppedAtMs", recording.stoppedAtMs.map { .int($0) } ?? .null),
            ("events", .int(Int64(recording.events.count))), ("truncated", .bool(recording.truncated)),
        ])
    }
}
