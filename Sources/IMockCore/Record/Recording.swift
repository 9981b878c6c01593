/// One app's recorded session (docs/RECORD.md): the app and its users when recording started
/// (a seed without secrets), then every inbound action and outbound event of that app in the
/// server's order, each with the server clock's time. A value: the server's `SessionRecorder`
/// appends to it, `GET /_imock/record` renders it, `imock record export` reads it back.
public struct Recording: Sendable, Equatable {
    /// The format's name and version, written first in every recording.
    public static let format = "imock-recording/1"
    /// Most events one recording keeps. The next one is not kept: the recording is marked
    /// `truncated` and stops taking events (it stays readable and exportable up to there).
    public static let eventLimit = 20_000
    /// Most bytes of a REST or control body kept; a longer body is left out (`bodyOmittedBytes`).
    public static let bodyLimit = 8192

    /// The app recorded.
    public var app: AppKey
    /// When recording started and, once stopped, when it stopped (server clock).
    public var startedAtMs: Int64
    public var stoppedAtMs: Int64?
    /// The app and its users at the start, in docs/SEED.md's format, without secrets.
    public var seed: JSONValue
    /// The events, in the server's order.
    public private(set) var events: [JSONValue] = []
    /// The event limit was reached: events after it were not kept.
    public private(set) var truncated = false

    /// A recording of `app` starting now with `seed`.
    public init(app: AppKey, startedAtMs: Int64, seed: JSONValue) {
        self.app = app
        self.startedAtMs = startedAtMs
        self.seed = seed
    }

    /// Whether events are still taken.
    public var isRecording: Bool { stoppedAtMs == nil && !truncated }

    /// Appends `event` (an object) with its time and global sequence number in front; returns
    /// its index, or nil when the recording takes no more events.
    @discardableResult
    mutating func append(_ event: JSONValue, atMs: Int64, sequence: Int64) -> Int? {
        guard isRecording else { return nil }
        guard events.count < Self.eventLimit else {
            truncated = true
            return nil
        }
        // An entry stamped when its output was decided may follow one stamped later in the
        // same turn (a flowing clock): the recording's times never go back.
        let atMs = max(atMs, events.last?["atMs"]?.intValue ?? startedAtMs)
        events.append(.object([("atMs", .int(atMs)), ("seq", .int(sequence))] + (event.objectValue ?? [])))
        return events.count - 1
    }

    /// Sets member `key` of the event at `index` (an HTTP call's status once answered).
    mutating func update(_ index: Int, _ key: String, _ value: JSONValue) {
        guard events.indices.contains(index), var members = events[index].objectValue else { return }
        members.removeAll { $0.key == key }
        members.append((key, value))
        events[index] = .object(members)
    }

    /// The recording as JSON (docs/RECORD.md § The format).
    public var jsonValue: JSONValue {
        .object([
            ("format", .string(Self.format)),
            ("app", .string(app.description)),
            ("startedAtMs", .int(startedAtMs)),
            ("stoppedAtMs", stoppedAtMs.map { .int($0) } ?? .null),
            ("recording", .bool(isRecording)),
            ("truncated", .bool(truncated)),
            ("eventLimit", .int(Int64(Self.eventLimit))),
            ("seed", seed),
            ("events", .array(events)),
        ])
    }

    /// The app and its users as a seed document without secrets: no client secret, signing
    /// key, token counters or password hashes (a replay mints its own).
    public static func seed(of app: App) -> JSONValue {
        var exported = SeedApp.export(app)
        exported.uuid = nil
        exported.clientID = nil
        exported.clientSecret = nil
        exported.signingKey = nil
        exported.nextTokenID = nil
        exported.revokedTokenIDs = []
        exported.users = exported.users.map { user in
            var user = user
            user.uuid = nil
            user.password = nil
            user.minimumTokenID = nil
            user.createdMs = nil
            user.modifiedMs = nil
            user.sequence = nil
            return user
        }
        return SeedDocument(apps: [exported]).jsonValue
    }
}
