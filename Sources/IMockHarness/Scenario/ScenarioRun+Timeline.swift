import IMockCore

extension ScenarioRun {
    /// Moves what happened since the last call into the timeline: clock moves, the frames the
    /// server sent (its journal) and the devices' callbacks, merged by virtual time (in that
    /// order on ties; callbacks keep their global order). The journal is the one the ordering
    /// barrier fetched when it just ran, else fetched now.
    func collectTimeline() async throws(ScenarioFailure) {
        let callbacks = observations.after(timelineMark)
        timelineMark = callbacks.last?.sequence ?? timelineMark
        var frames: [(atMs: Int64, event: TimelineEvent)] = clockMoves.map { ($0.toMs, .clock(fromMs: $0.fromMs, toMs: $0.toMs)) }
        clockMoves = []
        var journalFrames: [(atMs: Int64, event: TimelineEvent)] = []
        let fetched = settledJournal
        settledJournal = [:]
        for app in fixture.apps {
            let seen = journalSeen[app.name] ?? 0
            let read: [JSONValue]
            if let settled = fetched[app.name] { read = settled } else { read = try await journalEntries(of: app.name, after: seen) }
            let entries = Self.entries(read, after: seen)
            journalSeen[app.name] = Self.lastSequence(of: entries) ?? seen
            for entry in entries {
                learnResource(from: entry, app: app.name)
                let resource = entry["resource"]?.stringValue
                let device = device(of: entry, app: app.name)
                let atMs = entry["atMs"]?.intValue ?? time.nowMs
                journalFrames.append((atMs, .server(device: device, resource: resource, summary: Self.describe(entry["event"]), atMs: atMs)))
            }
        }
        // Stable: a clock move comes before what the server sent at its new time.
        frames = (frames + journalFrames).enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }.map(\.element)
        var merged: [TimelineEvent] = []
        var frameIndex = 0
        for callback in callbacks {
            while frameIndex < frames.count, frames[frameIndex].atMs <= callback.timeMs {
                merged.append(frames[frameIndex].event)
                frameIndex += 1
            }
            merged.append(.callback(callback))
        }
        merged += frames[frameIndex...].map(\.event)
        timeline += merged
    }

    /// The fixture device a journal entry of app `app` is about: by its resource; a refused login
    /// has no resource yet: then the user's only device of the app, if one.
    func device(of entry: JSONValue, app: String) -> String? {
        let resource = entry["resource"]?.stringValue
        let user = entry["user"]?.stringValue
        let ofUser = fixture.devices.filter { $0.app == app && (currentUser[$0.name] ?? $0.user) == user }
        return device(withResource: resource, app: app)
            ?? (resource == nil && ofUser.count == 1 ? ofUser[0].name : nil)
    }

    /// `kicked 206 …`, `close 4206`, `login.ok`: a journal event in a few words.
    static func describe(_ event: JSONValue?) -> String {
        guard let event else { return "?" }
        if event["type"]?.stringValue == "closed" {
            return "close \(event["code"]?.intValue ?? 0)"
        }
        guard let frame = event["frame"], case .object(let members) = frame else { return event.encodedString }
        let op = frame["op"]?.stringValue ?? "?"
        let rest = members.filter { $0.key != "op" && $0.key != "id" && $0.key != "serverTime" && $0.key != "reason" && $0.key != "message" }
        return rest.isEmpty ? op : op + " " + rest.map { "\($0.key)=\($0.value.encodedString)" }.joined(separator: " ")
    }
}
