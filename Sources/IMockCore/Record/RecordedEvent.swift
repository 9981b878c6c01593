/// The JSON of recorded events, in the engine's words (docs/RECORD.md § Events): what a
/// device asked (`"in"`) and what the server sent (`"out"`), whatever the dialect.
public enum RecordedEvent {
    /// Secrets' placeholder: body members named like a secret are written as this.
    public static let redacted = "<redacted>"
    /// Body members whose values are secrets (compared without case).
    static let secretKeys: Set<String> = [
        "password", "newpassword", "oldpassword", "client_secret", "clientsecret", "secret", "token", "access_token",
        "usertoken", "admintoken", "refresh_token", "signingkey",
    ]

    /// `event` with `members` added after its own.
    static func with(_ event: JSONValue, _ members: [(key: String, value: JSONValue)]) -> JSONValue {
        .object((event.objectValue ?? []) + members)
    }

    /// A device's command; tokens become the kind of credential they were.
    static func command(_ command: SessionCommand, credential: RecordedCredential?) -> JSONValue {
        let auth: [(key: String, value: JSONValue)] = credential.map { [("credential", $0.jsonValue)] } ?? []
        switch command {
        case .login(_, let request):
            return .object(
                [("in", "login"), ("user", .string(request.user)), ("device", described(request.device)),
                 ("autoLogin", .bool(request.autoLogin)), ("sync", .array(request.sync.map { .string($0.rawValue) }))] + auth)
        case .ping: return ["in": "ping"]
        case .renewToken: return .object([("in", "renewToken")] + auth)
        case .logout(_, let unbind): return .object([("in", "logout"), ("unbind", .bool(unbind))])
        case .devices: return ["in": "devices"]
        case .send(_, let to, let text): return .object([("in", "send"), ("to", .string(to)), ("text", .string(text))])
        case .ack(_, let messageId): return .object([("in", "ack"), ("messageId", .string(messageId))])
        }
    }

    /// A login's device as recorded: `{platform, uuid, name, extension, resource?}`.
    public static func described(_ device: DeviceDescription) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("platform", .string(fixtureName(of: device.platform))), ("uuid", .string(device.uuid)),
            ("name", .string(device.name)), ("extension", .string(device.extensionInfo)),
        ]
        if let resource = device.resource { members.append(("resource", .string(resource))) }
        return .object(members)
    }

    /// A platform as fixtures write it: `ios`, `custom:3`, `openim:5`.
    public static func fixtureName(of platform: DevicePlatform) -> String {
        switch platform {
        case .easemob(.custom(let type)): "custom:\(type)"
        case .easemob(let platform): platform.resourcePrefix
        case .openIM(let platform): "openim:\(platform.rawValue)"
        }
    }

    /// An output of the engine that the journal does not hold (replies, pushes); nil for the
    /// ones it does (login results, kicks, token events: the hub records their journal entry)
    /// and for timers.
    public static func output(_ output: SessionOutput) -> (ConnectionID, JSONValue)? {
        switch output {
        case .reply(let id, _, let reply):
            let event: JSONValue? =
                switch reply {
                case .loginAccepted: nil
                case .pong: ["out": "pong"]
                case .tokenRenewed: ["out": "tokenRenewed"]
                case .loggedOut: ["out": "loggedOut"]
                case .devices(let list): .object([("out", "devices"), ("count", .int(Int64(list.count)))])
                case .sent: ["out": "sent"]
                case .acked: ["out": "acked"]
                case .refused(let error, _): .object([("out", "refused"), ("error", .string(error.message))])
                }
            return event.map { (id, $0) }
        case .push(let id, let push):
            let event: JSONValue? =
                switch push {
                case .tokenWillExpire: nil
                case .offlineStart(let count): .object([("out", "offlineStart"), ("count", .int(Int64(count)))])
                case .message(let message):
                    .object([("out", "message"), ("from", .string(message.from)), ("text", .string(message.text))])
                case .offlineFinish: ["out": "offlineFinish"]
                case .syncStart(let type): .object([("out", "syncStart"), ("type", .string(type.rawValue))])
                case .syncFinish(let type, let error):
                    .object([("out", "syncFinish"), ("type", .string(type.rawValue)), ("failed", .bool(error != nil))])
                }
            return event.map { (id, $0) }
        case .end, .wake, .journal: return nil
        }
    }

    /// A journal entry as recorded: `{"out": "journal", "user", "resource", "event"}` with the
    /// event as the control API's journal renders it (`rendered`).
    public static func journal(_ entry: JournalEntry, rendered event: JSONValue) -> JSONValue {
        .object([
            ("out", "journal"), ("user", entry.user.map { .string($0) } ?? .null),
            ("resource", entry.resource.map { .string($0) } ?? .null), ("event", event),
        ])
    }

    /// A REST call (`api`: `easemob` or `openim`): its path below `/{org}/{app}/`, the kind of
    /// credential, and its body with secrets replaced by ``redacted``.
    public static func rest(
        api: String, method: String, path: String, query: [(name: String, value: String)], credential: RecordedCredential,
        body: [UInt8]
    ) -> JSONValue {
        .object(
            [("in", "rest"), ("api", .string(api)), ("method", .string(method)), ("path", .string(path)),
             ("query", queryJSON(query)), ("credential", credential.jsonValue)] + bodyMembers(body))
    }

    /// A control-API call: its path below `/_imock/` and its body with secrets replaced.
    public static func control(method: String, path: String, query: [(name: String, value: String)], body: [UInt8]) -> JSONValue {
        .object([("in", "control"), ("method", .string(method)), ("path", .string(path)), ("query", queryJSON(query))] + bodyMembers(body))
    }

    private static func queryJSON(_ query: [(name: String, value: String)]) -> JSONValue {
        .object(query.filter { !secretKeys.contains($0.name.lowercased()) }.map { ($0.name, .string($0.value)) })
    }

    private static func bodyMembers(_ body: [UInt8]) -> [(key: String, value: JSONValue)] {
        guard !body.isEmpty else { return [] }
        guard body.count <= Recording.bodyLimit else { return [("bodyOmittedBytes", .int(Int64(body.count)))] }
        guard let value = try? JSONValue.parse(body) else { return [("bodyOmittedBytes", .int(Int64(body.count)))] }
        return [("body", redact(value))]
    }

    /// `value` with every member named like a secret replaced by ``redacted``, at any depth.
    public static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(members.map { key, value in
                (key, secretKeys.contains(key.lowercased()) && !value.isNull ? .string(redacted) : redact(value))
            })
        case .array(let items): .array(items.map(redact))
        default: value
        }
    }
}
