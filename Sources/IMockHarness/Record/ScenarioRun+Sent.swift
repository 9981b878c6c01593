import IMockCore

extension ScenarioRun {
    /// Checks a `sent` expectation against the server's journal (``SentCheck``).
    func check(_ sent: SentCheck) async throws(ScenarioFailure) {
        let frames = try await sentFrames()
        let mine = sent.device.map { device in frames.filter { $0.device == device } } ?? frames
        let key = sent.device ?? ""
        let window = Array(mine.dropFirst(sentSeen[key] ?? 0))
        sentSeen[key] = mine.count
        let observed = window.map { frame in sent.device == nil ? Self.withDevice(frame.frame, frame.device) : frame.frame }
        let holds = observed.count == sent.matchers.count && zip(sent.matchers, observed).allSatisfy { $0.matches($1) }
        guard !holds else { return }
        throw ScenarioFailure(
            "the server did not send \(sent.device ?? "the devices") what was expected (\(sent.matchers.count) frames expected, \(observed.count) sent)",
            expected: sent.frames.map(SentCheck.describe), observed: observed.map(SentCheck.describe), device: sent.device)
    }

    /// The frames the server sent the fixture's devices, in its order (apps merged by time).
    private func sentFrames() async throws(ScenarioFailure) -> [(device: String, frame: JSONValue)] {
        var frames: [(atMs: Int64, device: String, frame: JSONValue)] = []
        for app in fixture.apps {
            let entries = try await server.link.control("GET", "journal?app=\(apps[app.name]!.query)")["entries"]?.arrayValue ?? []
            for entry in entries {
                guard let device = device(of: entry, app: app.name), let event = entry["event"],
                    let frame = SentCheck.normalized(event)
                else { continue }
                frames.append((entry["atMs"]?.intValue ?? 0, device, frame))
            }
        }
        return frames.enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }.map {
            ($0.element.device, $0.element.frame)
        }
    }

    private static func withDevice(_ frame: JSONValue, _ device: String) -> JSONValue {
        .object([("device", .string(device))] + (frame.objectValue ?? []))
    }
}
