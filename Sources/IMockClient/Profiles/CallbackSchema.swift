import IMockCore

/// Every callback a profile can report and the arguments each carries, generated from the
/// profile tables themselves (docs/FIXTURES.md § Callback schema): what an adapter for a team's
/// own SDK must report, in the names fixtures match. The checked-in copy,
/// `docs/callbacks.json`, is compared with this in the tests, so it cannot drift from the code.
public enum CallbackSchema {
    /// The schema's version: raised when its shape (not its content) changes.
    public static let version = 1

    /// The schema of every profile: `{"version", "profiles": {profile: {"callbacks": {name:
    /// {"arguments": [{"name", "types", "values"?}]}}}}}`. `types` are JSON types; `values`
    /// lists the fixed strings an argument takes (a state, an event) when it takes no others.
    public static func json() -> JSONValue {
        .object([
            ("version", .int(Int64(version))),
            ("profiles", .object(SDKProfile.allCases.map { ($0.rawValue, profile($0)) })),
        ])
    }

    /// One profile's callbacks, by name in alphabetical order.
    static func profile(_ profile: SDKProfile) -> JSONValue {
        var callbacks: [String: [ArgumentShape]] = [:]
        for callback in samples {
            for call in profile.calls(for: callback) {
                var shapes = callbacks[call.name] ?? []
                for argument in call.arguments {
                    if !shapes.contains(where: { $0.name == argument.name }) { shapes.append(ArgumentShape(name: argument.name)) }
                    shapes[shapes.firstIndex { $0.name == argument.name }!].observe(argument.value)
                }
                callbacks[call.name] = shapes
            }
        }
        return .object([
            ("callbacks", .object(callbacks.keys.sorted().map { name in
                (name, .object([("arguments", .array(callbacks[name]!.map(\.json)))]))
            })),
        ])
    }

    /// Strings the samples use for data (users, ids, texts, reasons): an argument that takes one
    /// of them is free text, not a fixed value.
    static let dataStrings: Set<String> = ["amy", "m1", "hello", "sample error", "phone", "ext"]

    /// One canonical callback of every kind, in every variant a table distinguishes (an error or
    /// none, each kick code with its own callback, the first attempt and a later one …).
    static var samples: [CanonicalCallback] {
        let error = ClientError(code: 300, message: "sample error")
        let message = ChatMessage(messageId: "m1", from: "amy", to: "amy", text: "hello", timestamp: 0)
        let by = KickedBy(deviceName: "phone", extensionInfo: "ext")
        let kicks: [SessionEndReason] =
            [206, 207, 216, 217, 220, 305, KickCode.activeUserLimitReached.rawValue, OpenIMKickCode.kickOnlineMessage.rawValue]
            .map { .kicked(code: $0, by: $0 == 206 || $0 == 220 ? by : nil) }
            + [.tokenExpired, .tokenInvalid(error), .reconnectGaveUp]
        let errors: [ClientError?] = [nil, error]
        var samples: [CanonicalCallback] = [.connectionAttempt(attempt: 0), .connectionAttempt(attempt: 1)]
        samples += [.connectionAttemptFailed(error), .connected(reconnected: false), .connected(reconnected: true)]
        samples += [.connectionLost, .loginAborted(error), .loginAborted(ClientError(code: SDKProfile.zim.rules.loginTimeout, message: ""))]
        samples += kicks.flatMap { [CanonicalCallback.sessionEnded($0, wasConnected: true), .sessionEnded($0, wasConnected: false)] }
        samples += [.tokenWillExpire(expiresAt: 60_000, remainingMs: 30_000), .offlineSyncStarted(count: 1), .offlineSyncFinished]
        samples += [.messageReceived(message, offline: false), .messageReceived(message, offline: true)]
        for error in errors {
            samples += [.databaseOpened(user: "amy", error: error), .loginCompleted(user: "amy", error: error)]
            samples += [.logoutCompleted(error: error, loggedOut: true), .renewTokenCompleted(callID: "c", error: error)]
            samples += SyncType.allCases.flatMap { [CanonicalCallback.dataSyncStarted($0), .dataSyncFinished($0, error: error)] }
            samples += [.sendCompleted(localID: "l", messageId: error == nil ? "m1" : nil, error: error)]
        }
        samples += [.logoutCompleted(error: error, loggedOut: false)]
        return samples
    }
}

/// What the samples showed of one argument.
struct ArgumentShape {
    let name: String
    private var types: Set<String> = []
    private var strings: Set<String> = []
    private var freeText = false

    init(name: String) { self.name = name }

    mutating func observe(_ value: JSONValue) {
        switch value {
        case .null: types.insert("null")
        case .bool: types.insert("boolean")
        case .int: types.insert("integer")
        case .double: types.insert("number")
        case .array: types.insert("array")
        case .object: types.insert("object")
        case .string(let text):
            types.insert("string")
            if CallbackSchema.dataStrings.contains(text) { freeText = true } else { strings.insert(text) }
        }
    }

    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(name)), ("types", .array(types.sorted().map { .string($0) })),
        ]
        if !freeText, !strings.isEmpty { members.append(("values", .array(strings.sorted().map { .string($0) }))) }
        return .object(members)
    }
}
