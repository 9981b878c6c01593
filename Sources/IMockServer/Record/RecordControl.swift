import IMockCore

/// `POST /_imock/record` starts or stops recording an app; `GET /_imock/record` lists the
/// recordings, or returns one (`?app=`) in the recording format (docs/RECORD.md).
enum RecordControl {
    static let routes: [ControlRoute] = [
        ControlRoute("POST", "/_imock/record") { context, request throws(ControlError) in
            try request.allowOnly(["app", "action", "callbacks"])
            let key = try appKey(try request.requiredString("app"), in: context.directory)
            let action = try request.requiredString("action")
            if action != "callbacks", request.body["callbacks"] != nil { throw .badRequest("'callbacks' goes with the action \"callbacks\"") }
            switch action {
            case "start":
                guard let app = try? context.directory.app(key) else { throw .notFound("no app \(key)") }
                context.sessions.recorder.start(app, nowMs: context.nowMs)
            case "stop":
                guard context.sessions.recorder.stop(key, nowMs: context.nowMs) != nil else {
                    throw .notFound("app \(key) has no recording")
                }
            case "callbacks":
                guard context.sessions.recorder.recordings[key]?.isRecording == true else {
                    throw .notFound("app \(key) is not being recorded")
                }
                _ = context.sessions.recorder.call(
                    .object([("out", "callbacks"), ("callbacks", try callbacks(request.body["callbacks"]))]), app: key, nowMs: context.nowMs)
            case let other:
                throw .badRequest("'action' must be \"start\", \"stop\" or \"callbacks\"; got '\(other)'")
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
