import IMockCore

extension ScenarioRun {
    /// The ordering barrier (docs/FIXTURES.md § Adapters, "Ordering"): through real-time adapters
    /// the global sequence is the order callbacks reach the harness, and two devices' callbacks
    /// caused by frames the server sent microseconds apart may arrive the other way round. After
    /// a step settled, the server's frames since the last barrier (its journal, numbered in the
    /// order it sent them) go to each adapter that declares `barrier`; it answers with each
    /// frame's number on its device, and the step's callbacks of its devices are put in server
    /// order: each ranks as the newest listed frame its device had received when it fired.
    func orderThroughAdapters(since mark: UInt64) async throws(ScenarioFailure) {
        let ordering = adapters.values.compactMap { $0 as? ProcessAdapter }.filter { $0.supportedCommands?.contains("barrier") == true }
        guard !ordering.isEmpty else { return }
        var frames: [String: [(sequence: Int64, event: JSONValue)]] = [:]
        for app in fixture.apps {
            let seen = barrierSeen[app.name] ?? 0
            // From the older of the two cursors: the timeline reads the same fetch right after.
            let entries = try await journalEntries(of: app.name, after: min(seen, journalSeen[app.name] ?? 0))
            settledJournal[app.name] = entries
            let new = Self.entries(entries, after: seen)
            barrierSeen[app.name] = Self.lastSequence(of: new) ?? seen
            for entry in new {
                learnResource(from: entry, app: app.name)
                guard let device = device(of: entry, app: app.name), let event = entry["event"] else { continue }
                serverSequence += 1
                frames[device, default: []].append((serverSequence, event))
            }
        }
        var ranks: [String: [(number: Int64, sequence: Int64)]] = [:]
        for adapter in ordering {
            let mine = frames.filter { device, _ in fixture.devices.contains { $0.name == device && adapterName($0) == adapter.name } }
            let numbers = await adapter.barrier(mine)
            for (device, list) in mine {
                ranks[device] = list.compactMap { frame in numbers[frame.sequence].map { ($0, frame.sequence) } }.sorted { $0.number < $1.number }
            }
        }
        guard !ranks.isEmpty else { return }
        observations.reorder(after: mark) { callback in
            guard let received = callback.frames, let listed = ranks[callback.device] else { return nil }
            return listed.last { $0.number <= received }?.sequence ?? 0
        }
    }

    /// The server's journal of fixture app `app` (up to its last 10,000 entries), those numbered
    /// after `after` only when given.
    func journalEntries(of app: String, after: Int64? = nil) async throws(ScenarioFailure) -> [JSONValue] {
        let cursor = after.map { "&afterSeq=\($0)" } ?? ""
        return try await server.link.control("GET", "journal?app=\(apps[app]!.query)\(cursor)")["entries"]?.arrayValue ?? []
    }

    /// The journal entries of `entries` numbered after `sequence` (a cursor stays right when the
    /// server drops the older half of a full journal, where a count of entries read did not).
    static func entries(_ entries: [JSONValue], after sequence: Int64) -> [JSONValue] {
        entries.filter { ($0["seq"]?.intValue ?? 0) > sequence }
    }

    /// The number of the last of `entries`, nil when there are none.
    static func lastSequence(of entries: [JSONValue]) -> Int64? {
        entries.last?["seq"]?.intValue
    }
}
