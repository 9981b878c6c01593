import IMockCore
import Synchronization

/// Where a run with recording on (``RunSettings/recordings``) leaves each fixture's recording.
public final class RecordingSink: Sendable {
    private let kept = Mutex<[(file: String, recording: JSONValue)]>([])

    public init() {}

    /// The recordings so far, one per fixture run, in the order they ended.
    public var recordings: [(file: String, recording: JSONValue)] { kept.withLock { $0 } }

    func add(_ file: String, _ recording: JSONValue) { kept.withLock { $0.append((file, recording)) } }
}

extension ScenarioRun {
    /// With recording on, starts recording the fixture's first app once it is seeded.
    func startRecording() async throws(ScenarioFailure) {
        guard settings.recordings != nil, let app = fixture.apps.first, let key = apps[app.name]?.key else { return }
        _ = try await server.link.control("POST", "record", ["app": .string(key), "action": "start"])
    }

    /// Stops the recording and hands it to the sink.
    func finishRecording() async {
        guard let sink = settings.recordings, server != nil, let app = fixture.apps.first, let key = apps[app.name] else { return }
        _ = try? await server.link.control("POST", "record", ["app": .string(key.key), "action": "stop"])
        if let recording = try? await server.link.control("GET", "record?app=\(key.query)") { sink.add(fixture.file, recording) }
    }
}
