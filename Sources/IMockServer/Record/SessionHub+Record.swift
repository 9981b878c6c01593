import IMockCommon
import IMockCore
import IMockNet

/// The hub's side of record mode (docs/RECORD.md): every dialect's commands, the engine's
/// outputs and the journal pass through the hub, so it feeds the ``SessionRecorder`` here, in
/// the engine's words. Nothing is done while no recording runs.
extension SessionHub {
    /// A command decoded on `id`, before the engine runs it.
    func recordCommand(_ command: SessionCommand, on id: ConnectionID, dialect: String?) {
        guard recorder.isActive else { return }
        let now = clock.nowMs
        let directory = domain.value.directory
        let credential: RecordedCredential?
        switch command {
        case .login(_, let request):
            credential = RecordedCredential.classify(
                request.token, app: try? AppKey(parsing: request.appKey), directory: directory, nowMs: now)
        case .renewToken(_, let token):
            credential = RecordedCredential.classify(token, app: faultSubject(of: id).app, directory: directory, nowMs: now)
        default:
            credential = nil
        }
        recorder.command(command, on: id, dialect: dialect ?? dialectName(of: id) ?? "?", credential: credential, nowMs: now)
    }

    /// An output of the engine the journal does not hold (a pong, a message, a sync marker).
    func recordOutput(_ output: SessionOutput) {
        guard recorder.isActive, let (id, event) = RecordedEvent.output(output) else { return }
        recorder.sent(event, on: id, app: nil, nowMs: clock.nowMs)
    }

    /// A journal entry: login results, kicks, token events, closes.
    func recordJournal(_ entry: JournalEntry) {
        guard recorder.isActive else { return }
        let event = RecordedEvent.journal(entry, rendered: InspectionControl.json(entry)["event"] ?? .null)
        recorder.sent(event, on: entry.connection, app: entry.app, nowMs: entry.atMs)
    }

    /// An HTTP request before it is routed: a REST call of a recorded app, or a control call
    /// that changes something (not `/_imock/record` itself). Returns where it was kept.
    func recordCall(_ request: HTTPRequest, dialectPaths: [String]) -> [RecordingMark] {
        // A session connection's upgrade is not a call: its login is recorded as a command.
        guard recorder.isActive, !dialectPaths.contains(request.path), request.headers["Upgrade"] == nil else { return [] }
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let now = clock.nowMs
        if segments.first == "_imock" {
            let below = segments.dropFirst().joined(separator: "/")
            guard request.method != "GET", !below.hasPrefix("record") else { return [] }
            let event = RecordedEvent.control(method: request.method, path: below, query: request.query, body: request.body)
            return recorder.call(event, app: controlApp(segments, request), nowMs: now)
        }
        let openIM = segments.first == "openim"
        let parts = openIM ? Array(segments.dropFirst()) : segments
        guard parts.count >= 3, let key = try? AppKey(parsing: parts[0] + "#" + parts[1]),
            recorder.recordings[key]?.isRecording == true
        else { return [] }
        let token: String?
        if openIM {
            token = request.headers["token"]
        } else {
            token = request.headers["Authorization"].map { header in
                let words = header.split(separator: " ", maxSplits: 1)
                return words.count == 2 ? String(words[1]) : header
            }
        }
        let credential = RecordedCredential.classify(token, app: key, directory: domain.value.directory, nowMs: now)
        let event = RecordedEvent.rest(
            api: openIM ? "openim" : "easemob", method: request.method, path: parts.dropFirst(2).joined(separator: "/"),
            query: request.query, credential: credential, body: request.body)
        return recorder.call(event, app: key, nowMs: now)
    }

    /// The app a control call concerns: `/_imock/apps/{org}/{app}/…`, a fault's `app`; nil
    /// (every recording) for the clock and the rest.
    private func controlApp(_ segments: [String], _ request: HTTPRequest) -> AppKey? {
        if segments.count >= 4, segments[1] == "apps" { return try? AppKey(parsing: segments[2] + "#" + segments[3]) }
        if segments.count >= 2, segments[1] == "faults" {
            let named = request.queryValue("app") ?? (try? JSONValue.parse(request.body))?["app"]?.stringValue
            return named.flatMap { try? AppKey(parsing: $0) }
        }
        return nil
    }
}
