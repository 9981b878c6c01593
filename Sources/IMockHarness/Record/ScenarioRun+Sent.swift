import IMockCore

extension ScenarioRun {
    /// Checks a `sent` expectation against the server's journal (``SentCheck``).
    func check(_ sent: SentCheck) async throws(ScenarioFailure) {
        let key = sent.device ?? ""
        var mine = try await sentFrames(to: sent.device)
        // A real-time SDK acts on its own timers (a reconnect) in real time, after the virtual
        // clock moved: what it causes may still come, up to the cap.
        if time.hasRealTimeDevices, mine.count - (sentState.seen[key] ?? 0) < sent.matchers.count {
            let deadline = ContinuousClock.now + settings.realTimeCap
            while mine.count - (sentState.seen[key] ?? 0) < sent.matchers.count, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(50))
                mine = try await sentFrames(to: sent.device)
            }
        }
        let window = Array(mine.dropFirst(sentState.seen[key] ?? 0))
        sentState.seen[key] = mine.count
        let observed = window.map { frame in sent.device == nil ? Self.withDevice(frame.frame, frame.device) : frame.frame }
        let holds = observed.count == sent.matchers.count && zip(sent.matchers, observed).allSatisfy { $0.matches($1) }
        guard !holds else { return }
        throw ScenarioFailure(
            "the server did not send \(sent.device ?? "the devices") what was expected (\(sent.matchers.count) frames expected, \(observed.count) sent)",
            expected: sent.frames.map(SentCheck.describe), observed: observed.map(SentCheck.describe), device: sent.device)
    }

    /// The frames the server sent `device` (nil: every fixture device), in its order.
    private func sentFrames(to device: String?) async throws(ScenarioFailure) -> [(device: String, frame: JSONValue)] {
        let frames = try await sentFrames()
        return device.map { device in frames.filter { $0.device == device } } ?? frames
    }

    /// The frames the server sent the fixture's devices, in its order (apps merged by time).
    private func sentFrames() async throws(ScenarioFailure) -> [(device: String, frame: JSONValue)] {
        let latest = timeline.reversed().lazy.compactMap { event -> String? in
            if case .step(_, _, _, let device?, _) = event { return device }
            return nil
        }
        let latestSteps = Array(latest)
        var frames: [(atMs: Int64, device: String, frame: JSONValue)] = []
        var live: Set<String> = []
        for app in fixture.apps {
            let entries = try await journalEntries(of: app.name)
            // The journal does not tell a connection the client closed or a fault dropped: a
            // device is live while the journal says so and the server has a session under its resource.
            let sessions = Set(try await sessions(of: apps[app.name]!).compactMap { $0["resource"]?.stringValue })
            var held = live.filter { sessions.contains(resource(of: $0)) }
            for entry in entries {
                guard let device = sentDevice(of: entry, app: app.name, latest: latestSteps, live: held), let event = entry["event"],
                    let frame = SentCheck.normalized(event)
                else { continue }
                if frame["op"]?.stringValue == "login.ok" {
                    live.insert(device)
                    if sessions.contains(resource(of: device)) { held.insert(device) }
                }
                if frame["closed"] != nil {
                    live.remove(device)
                    held.remove(device)
                }
                frames.append((entry["atMs"]?.intValue ?? 0, device, frame))
            }
        }
        return frames.enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }.map {
            ($0.element.device, $0.element.frame)
        }
    }

    /// The fixture device of a journal entry: the device its connection was found to be
    /// before; else by its resource (``device(of:app:)``) when one device has it; else — instances of
    /// one device sharing the resource (two tabs), a refused login (no resource), an SDK that
    /// chose no device id (a resource of the server's) — among those instances, or the devices
    /// of its user on the resource's platform, the one without a session (`live`) that took the
    /// latest step (`latest`, newest first): the one that just logged in (an export checks what
    /// was sent after each step).
    private func sentDevice(of entry: JSONValue, app: String, latest: [String], live: Set<String>) -> String? {
        // A connection stays the device it was first found to be, though the device's resource
        // changes later (an SDK that chooses a new one at each login).
        let connection = entry["connection"]?.intValue.map { "\(app)/\($0)" }
        if let connection, let device = sentState.connections[connection] { return device }
        let named = device(of: entry, app: app)
        let instances = named.flatMap(fixture.device).map { found in fixture.devices.filter { $0.app == app && $0.resource == found.resource } } ?? []
        if let named, instances.count < 2 {
            if let connection { sentState.connections[connection] = named }
            return named
        }
        var candidates = instances
        if candidates.isEmpty {
            let user = entry["user"]?.stringValue
            candidates = fixture.devices.filter { $0.app == app && (currentUser[$0.name] ?? $0.user) == user }
            // On the resource's platform, unless its SDK names itself otherwise (`webim_random_…`).
            if let resource = entry["resource"]?.stringValue {
                let prefix = resource.split(separator: "_").first.map(String.init) ?? resource
                let onPlatform = candidates.filter { $0.resource.hasPrefix(prefix + "_") }
                if !onPlatform.isEmpty { candidates = onPlatform }
            }
        }
        let idle = candidates.filter { !live.contains($0.name) }
        if !idle.isEmpty { candidates = idle }
        let chosen = candidates.count == 1 ? candidates[0].name : latest.first { name in candidates.contains { $0.name == name } }
        if let chosen, let connection { sentState.connections[connection] = chosen }
        return chosen
    }

    private static func withDevice(_ frame: JSONValue, _ device: String) -> JSONValue {
        .object([("device", .string(device))] + (frame.objectValue ?? []))
    }
}
