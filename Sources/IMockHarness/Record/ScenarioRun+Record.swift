import IMockClient
import IMockCommon
import IMockCore
import Synchronization

/// Where a run with recording on (``RunSettings/recordings``) leaves each fixture's recording.
public final class RecordingSink: Sendable {
    private let kept = Mutex<[(file: String, recording: JSONValue)]>([])

    public init() {}

    /// The recordings so far, one per fixture run, in the order they ended.
    public var recordings: [(file: String, recording: JSONValue)] { kept.withLock { $0 } }

    func add(_ file: String, _ recording: JSONValue) { kept.withLock { $0.append((file, recording)) } }

    /// Writes each recording to `directory` (made if missing) as `<fixture file name>.recording.json`
    /// (`-2`, `-3` … for a fixture run more than once: its parameter rows); returns the paths.
    public func write(to directory: String) throws(FileError) -> [String] {
        try Files.makeDirectories(directory)
        var paths: [String] = []
        for (file, recording) in recordings {
            var base = directory + "/" + (file.split(separator: "/").last.map(String.init) ?? "fixture")
            if base.hasSuffix(".json") { base.removeLast(5) }
            var path = base + ".recording.json"
            var counter = 1
            while paths.contains(path) {
                counter += 1
                path = base + "-\(counter).recording.json"
            }
            try Files.writeAtomically(path, Array(recording.prettyString.utf8))
            paths.append(path)
        }
        return paths
    }
}

extension ScenarioRun {
    /// With recording on, starts recording the fixture's first app once it is seeded.
    func startRecording() async throws(ScenarioFailure) {
        guard settings.recordings != nil, let app = fixture.apps.first, let key = apps[app.name]?.key else { return }
        _ = try await server.link.control("POST", "record", ["app": .string(key), "action": "start"])
    }

    /// Puts the callbacks observed since the last call into the recording: the export then
    /// checks each device's whole sequence of them too (docs/RECORD.md § Callbacks).
    func recordCallbacks() async {
        guard settings.recordings != nil, let app = fixture.apps.first, let key = apps[app.name]?.key else { return }
        let callbacks = observations.after(sentState.recordedSequence)
        guard let last = callbacks.last else { return }
        sentState.recordedSequence = last.sequence
        let listed: [JSONValue] = callbacks.compactMap { callback in
            guard let device = fixture.device(callback.device) else { return nil }
            let instance = instance(of: device)
            return .object([
                ("resource", .string(device.resource)), ("name", .string(callback.name)), ("profile", .string(device.profile.rawValue)),
            ] + (instance > 1 ? [("instance", .int(Int64(instance)))] : []))
        }
        _ = try? await server.link.control("POST", "record", ["app": .string(key), "action": "callbacks", "callbacks": .array(listed)])
    }

    /// Puts an SDK call of a device of the recorded app (or a token issued for later calls)
    /// into the recording before it runs, so that an export replays it as the fixture made it
    /// (docs/RECORD.md § SDK calls).
    func recordCall(_ step: Step) async {
        guard settings.recordings != nil, let app = fixture.apps.first, let key = apps[app.name]?.key else { return }
        var members: [(key: String, value: JSONValue)]
        switch step.kind {
        case .device(let action):
            // A token issued in another app cannot be issued by the export (one app): it is a token the app refuses.
            let recordedNames = Set(fixture.steps.compactMap { step -> String? in
                guard case .issueToken(let name, .fresh(_, _, let tokenApp)) = step.kind, tokenApp == nil || tokenApp == app.name else { return nil }
                return name
            })
            guard let device = fixture.device(action.device), device.app == app.name,
                let call = RecordedCall.json(action.call, issued: recordedNames)
            else { return }
            let instance = instance(of: device)
            members = [("resource", .string(device.resource)), ("user", .string(device.user)), ("device", RecordedEvent.described(device.description))]
            if instance > 1 { members.append(("instance", .int(Int64(instance)))) }
            members.append(("call", call))
        case .issueToken(let name, .fresh(let user?, let ttlSeconds, let tokenApp)) where tokenApp == nil || tokenApp == app.name:
            let ttl: [(key: String, value: JSONValue)] = ttlSeconds.map { [("ttl", .string(DurationText.format($0 * 1000)))] } ?? []
            members = [("call", .object([("issueToken", .string(name)), ("user", .string(user))] + ttl))]
        default:
            return
        }
        _ = try? await server.link.control("POST", "record", ["app": .string(key), "action": "calls", "calls": [.object(members)]])
    }

    /// Which instance `device` is (from 1) among its app's devices that share its resource (two
    /// tabs of one device), in order of their first SDK call: the export's order of first login.
    func instance(of device: FixtureDevice) -> Int {
        let sharing = fixture.devices.filter { $0.app == device.app && $0.resource == device.resource }
        guard sharing.count > 1 else { return 1 }
        func firstCall(_ name: String) -> Int {
            fixture.steps.firstIndex { step in
                if case .device(let action) = step.kind { return action.device == name }
                return false
            } ?? Int.max
        }
        let ordered = sharing.enumerated().sorted { (firstCall($0.element.name), $0.offset) < (firstCall($1.element.name), $1.offset) }
        return (ordered.firstIndex { $0.element.name == device.name } ?? 0) + 1
    }

    /// Stops the recording and hands it to the sink.
    func finishRecording() async {
        guard let sink = settings.recordings, server != nil, let app = fixture.apps.first, let key = apps[app.name] else { return }
        await recordCallbacks()
        _ = try? await server.link.control("POST", "record", ["app": .string(key.key), "action": "stop"])
        if let recording = try? await server.link.control("GET", "record?app=\(key.query)") { sink.add(fixture.file, recording) }
    }
}
