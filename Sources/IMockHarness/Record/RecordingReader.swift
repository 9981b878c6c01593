import IMockCore

/// Reads a recording (docs/RECORD.md § The format) and checks what the export relies on,
/// naming the JSON path of the first problem.
public struct RecordingReader: Sendable {
    /// The recorded app.
    public var app: AppKey
    /// When recording started and stopped (nil: still running when fetched).
    public var startedAtMs: Int64
    public var stoppedAtMs: Int64?
    /// The recording reached its event limit.
    public var truncated: Bool
    /// The seed's one app.
    public var seedApp: JSONValue
    /// The events, in the server's order.
    public var events: [JSONValue]

    /// Parses `bytes` as a recording.
    public init(bytes: [UInt8]) throws(RecordingError) {
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            throw RecordingError(path: "", reason: "empty input: expected a recording (GET /_imock/record?app=…)")
        }
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw RecordingError(path: "", reason: "not JSON (a truncated file?): \(error)")
        }
        try self.init(document)
    }

    /// Reads a parsed recording.
    public init(_ document: JSONValue) throws(RecordingError) {
        guard document.objectValue != nil else { throw RecordingError(path: "", reason: "a recording is a JSON object") }
        guard let format = document["format"]?.stringValue else {
            throw RecordingError(path: "format", reason: "missing: not an imock recording (expected \"\(Recording.format)\")")
        }
        guard format == Recording.format else {
            throw RecordingError(path: "format", reason: "\"\(format)\" is not a format this imock reads (\"\(Recording.format)\")")
        }
        guard let appText = document["app"]?.stringValue, let app = try? AppKey(parsing: appText) else {
            throw RecordingError(path: "app", reason: "must be an app key org#app")
        }
        self.app = app
        guard let started = document["startedAtMs"]?.intValue, (0...Self.latestMs).contains(started) else {
            throw RecordingError(path: "startedAtMs", reason: "must be an integer (epoch ms)")
        }
        startedAtMs = started
        stoppedAtMs = document["stoppedAtMs"]?.intValue
        if let stopped = stoppedAtMs, !(started...Self.latestMs).contains(stopped) {
            throw RecordingError(path: "stoppedAtMs", reason: "must be an integer (epoch ms) from startedAtMs on")
        }
        truncated = document["truncated"]?.boolValue ?? false
        guard let seedApp = document["seed"]?["apps"]?.arrayValue?.first, seedApp.objectValue != nil else {
            throw RecordingError(path: "seed.apps", reason: "must hold the recorded app (docs/SEED.md)")
        }
        self.seedApp = seedApp
        guard let events = document["events"]?.arrayValue else {
            throw RecordingError(path: "events", reason: "must be an array")
        }
        var lastMs = started
        for (index, event) in events.enumerated() {
            let path = "events[\(index)]"
            guard event.objectValue != nil else { throw RecordingError(path: path, reason: "must be an object") }
            guard let atMs = event["atMs"]?.intValue else { throw RecordingError(path: path + ".atMs", reason: "must be an integer") }
            guard atMs <= Self.latestMs else { throw RecordingError(path: path + ".atMs", reason: "must be an epoch time in ms") }
            guard atMs >= lastMs else {
                throw RecordingError(path: path + ".atMs", reason: "goes back in time (\(atMs) after \(lastMs))")
            }
            lastMs = atMs
            guard (event["in"]?.stringValue ?? event["out"]?.stringValue) != nil else {
                throw RecordingError(path: path, reason: "has neither \"in\" nor \"out\"")
            }
            if event["in"]?.stringValue == "sdk" {
                try Self.checkCall(event, at: path)
            } else if event["in"] != nil, event["in"]?.stringValue != "rest", event["in"]?.stringValue != "control",
                event["connection"]?.intValue == nil
            {
                throw RecordingError(path: path + ".connection", reason: "must be an integer")
            }
        }
        self.events = events
    }

    /// The latest time a recording may name (2^53 ms: every time fits JSON's exact integers,
    /// and differences of times cannot overflow).
    static let latestMs: Int64 = 1 << 53

    /// The most instances of one device a recording may name.
    static let instanceLimit: Int64 = 100

    /// An SDK call of a harness: `call` an object with `do` (then `user` and `device` with
    /// `platform` and `uuid`) or `issueToken`; `instance`, if any, from 1 to ``instanceLimit``.
    private static func checkCall(_ event: JSONValue, at path: String) throws(RecordingError) {
        guard let call = event["call"], call.objectValue != nil else { throw RecordingError(path: path + ".call", reason: "must be an object") }
        if let instance = event["instance"], !(1...Self.instanceLimit).contains(instance.intValue ?? 0) {
            throw RecordingError(path: path + ".instance", reason: "must be an integer from 1 to \(Self.instanceLimit)")
        }
        if call["issueToken"]?.stringValue != nil { return }
        guard call["do"]?.stringValue != nil else { throw RecordingError(path: path + ".call", reason: "needs \"do\" or \"issueToken\"") }
        guard event["user"]?.stringValue != nil else { throw RecordingError(path: path + ".user", reason: "must be a string") }
        guard event["device"]?["platform"]?.stringValue != nil, event["device"]?["uuid"]?.stringValue != nil else {
            throw RecordingError(path: path + ".device", reason: "must be {platform, uuid, …}")
        }
    }
}
