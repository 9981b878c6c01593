/// The server's recordings (docs/RECORD.md): a pure value the session hub and the HTTP router
/// feed with what passes through them, in the server's order. Each app under recording has its
/// own ``Recording``; an event reaches the recording of the app it concerns (a connection
/// belongs to the app it logged in to; a clock move to every recording).
public struct SessionRecorder: Sendable {
    /// The latest recording of each app, running or stopped.
    public private(set) var recordings: [AppKey: Recording] = [:]
    /// The app each connection logged in to, while that app is recorded.
    private var connections: [ConnectionID: AppKey] = [:]
    /// The server's order across recordings.
    private var sequence: Int64 = 0

    /// No recordings.
    public init() {}

    /// Whether any recording takes events (the hub skips all work otherwise).
    public var isActive: Bool { recordings.values.contains { $0.isRecording } }

    /// Starts a new recording of `app` (replacing a stopped or running one).
    public mutating func start(_ app: App, nowMs: Int64) {
        recordings[app.key] = Recording(app: app.key, startedAtMs: nowMs, seed: Recording.seed(of: app))
        connections = connections.filter { $0.value != app.key }
    }

    /// Stops the recording of `app`; returns it (nil when there is none).
    @discardableResult
    public mutating func stop(_ app: AppKey, nowMs: Int64) -> Recording? {
        guard var recording = recordings[app] else { return nil }
        if recording.stoppedAtMs == nil { recording.stoppedAtMs = nowMs }
        recordings[app] = recording
        return recording
    }

    /// Forgets the recording of `app`.
    public mutating func remove(_ app: AppKey) {
        recordings[app] = nil
        connections = connections.filter { $0.value != app }
    }

    /// A command a device sent on `connection` (dialect `dialect`). A login ties the
    /// connection to its app; `credential` is what its token turned out to be.
    public mutating func command(
        _ command: SessionCommand, on connection: ConnectionID, dialect: String, credential: RecordedCredential?, nowMs: Int64
    ) {
        if case .login(_, let request) = command {
            if let key = try? AppKey(parsing: request.appKey), recordings[key]?.isRecording == true {
                connections[connection] = key
            } else {
                connections[connection] = nil
            }
        }
        guard let app = connections[connection] else { return }
        var event = RecordedEvent.command(command, credential: credential)
        event = RecordedEvent.with(event, [("connection", .int(Int64(connection.rawValue))), ("dialect", .string(dialect))])
        append(event, to: app, nowMs: nowMs)
    }

    /// Something the server sent on `connection`: a journal entry (`app` from it) or another
    /// output of the engine.
    public mutating func sent(_ event: JSONValue, on connection: ConnectionID, app: AppKey?, nowMs: Int64) {
        guard let key = app ?? connections[connection] else { return }
        append(RecordedEvent.with(event, [("connection", .int(Int64(connection.rawValue)))]), to: key, nowMs: nowMs)
    }

    /// The connection is closed (by either side): `{"in": "disconnected"}` says so, and later
    /// events on its id are not the app's.
    public mutating func closed(_ connection: ConnectionID, nowMs: Int64) {
        guard let app = connections.removeValue(forKey: connection) else { return }
        append(.object([("in", "disconnected"), ("connection", .int(Int64(connection.rawValue)))]), to: app, nowMs: nowMs)
    }

    /// A REST or control call concerning `app` (nil: every running recording, a clock move).
    /// Returns where it was kept, to add the answer's status later.
    public mutating func call(_ event: JSONValue, app: AppKey?, nowMs: Int64) -> [RecordingMark] {
        let keys = app.map { [$0] } ?? recordings.keys.sorted()
        return keys.compactMap { key in append(event, to: key, nowMs: nowMs).map { RecordingMark(app: key, index: $0) } }
    }

    /// The status of the call kept at `marks`.
    public mutating func answered(_ marks: [RecordingMark], status: Int) {
        for mark in marks { recordings[mark.app]?.update(mark.index, "status", .int(Int64(status))) }
    }

    @discardableResult
    private mutating func append(_ event: JSONValue, to app: AppKey, nowMs: Int64) -> Int? {
        guard recordings[app]?.isRecording == true else { return nil }
        sequence += 1
        return recordings[app]?.append(event, atMs: nowMs, sequence: sequence)
    }
}

/// Where a call was kept in a recording.
public struct RecordingMark: Sendable, Equatable {
    public var app: AppKey
    public var index: Int
}
