import IMockCore

/// What `imock record export` keeps and how strictly it checks (docs/RECORD.md § Export).
public struct RecordingExportOptions: Sendable {
    /// Keep events from / to this long after the recording's start (nil: all).
    public var fromMs: Int64?
    public var toMs: Int64?
    /// Keep only these devices (export names, resources or users); nil: all.
    public var devices: [String]?
    /// Leave pings and pongs out: the clock then moves in one step between two actions.
    public var dropPings = false
    /// `global`: per-device checks plus the order across devices; `device`: per-device only.
    public var order: Order = .global
    /// Check the callbacks the recording holds (an `imock run --record` of adapters' devices).
    public var callbacks = true
    /// The rule id the fixture names, and its name.
    public var rule = "S4"
    public var name: String?

    /// How much order the export asserts.
    public enum Order: String, Sendable { case device, global }

    public init() {}
}

/// Turns a recording into a fixture (docs/FIXTURES.md): the seed becomes the app and its
/// users, each device that logged in a fixture device, each action a step, the time between
/// them `advance` steps, and what the server sent `sent` checks. Pure.
public enum RecordingExport {
    /// The fixture, and notes on what was left out (for stderr).
    public static func fixture(
        _ recording: RecordingReader, options: RecordingExportOptions = RecordingExportOptions()
    ) throws(RecordingError) -> (fixture: JSONValue, notes: [String]) {
        var builder = FixtureBuilder(recording: recording, options: options)
        try builder.devicesFromLogins()
        builder.addedUsers = builder.usersRegisteredMidway()
        try builder.walk()
        if builder.mintedTokens > 0 {
            builder.notes.append("left out \(builder.mintedTokens) token requests (client_credentials, inherit): the replay mints its own tokens")
        }
        return (builder.document(), builder.notes)
    }
}

/// The export's working state.
struct FixtureBuilder {
    let recording: RecordingReader
    let options: RecordingExportOptions
    var notes: [String] = []
    /// Fixture devices in order of first login, and what identifies each.
    var devices: [(name: String, key: String, json: JSONValue, user: String)] = []
    /// Which device each connection is.
    var connections: [Int64: String] = [:]
    var steps: [JSONValue] = []
    /// Frames sent since the last step, by device, and in the server's order.
    var pending: [(device: String, frame: JSONValue)] = []
    /// The callbacks the recording holds, in order.
    var recordedCallbacks: [(device: String, name: String)] = []
    /// The profile whose words each device's callbacks are in.
    var profiles: [String: String] = [:]
    /// Frames since the last check of the order across devices (made once two devices got some).
    var sinceOrderCheck: [(device: String, frame: JSONValue)] = []
    var nowMs: Int64
    /// Token requests left out (the replay mints its own).
    var mintedTokens = 0
    /// Users the devices log in as that were registered during the recording: the fixture has
    /// them from the start (a fixture device's user is one of its app's) and leaves their
    /// registration out.
    var addedUsers: [String] = []
    /// Each device's reconnect waits, in order: from its last sign of life (a command, what
    /// the server sent it, its connection's end) to each automatic login of its SDK.
    var reconnects: [String: [Int64]] = [:]
    /// Devices whose SDK calls the recording holds (`{"in": "sdk"}`): those calls are their
    /// steps, not the commands the server got.
    var driven: Set<String> = []
    /// Each device's failed reconnects in a row, to tell a device that gave up.
    var attempts = ReconnectAttempts()
    /// Devices whose SDK gave up reconnecting, and after how many attempts.
    var maxAttempts: [String: Int] = [:]
    /// The user each device last logged in as.
    var loggedInAs: [String: String] = [:]
    /// Devices a harness called a login on since their last login, and the user it was for.
    var calledLogin: [String: String] = [:]
    /// The SDKs' own logins (reconnects, by index of event): no steps, but times the clock stops at.
    var automaticLogins: Set<Int> = []
    /// Keys of devices as their SDK logged in, for the key an SDK call named them by.
    var aliases: [String: String] = [:]
    /// Devices a harness created and gave their delegate by steps (`init: manual`).
    var manualInit: Set<String> = []
    /// Users whose passwords are known to the replay (`<name>-password`).
    let appName: String

    init(recording: RecordingReader, options: RecordingExportOptions) {
        self.recording = recording
        self.options = options
        nowMs = recording.startedAtMs + min(max(options.fromMs ?? 0, 0), RecordingReader.latestMs)
        let cleaned = String(recording.app.app.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(16))
        appName = cleaned.isEmpty ? "app" : cleaned
    }

    /// A device's identity: its resource, or platform and uuid.
    static func key(_ device: JSONValue) -> String {
        device["resource"]?.stringValue ?? "\(device["platform"]?.stringValue ?? "?")/\(device["uuid"]?.stringValue ?? "?")"
    }

    /// One fixture device per device that logged in or that an SDK call of a harness names
    /// (`{"in": "sdk"}`), in order of first sight; which device each connection is; each
    /// device's reconnect waits.
    mutating func devicesFromLogins() throws(RecordingError) {
        var lastSeen: [String: Int64] = [:]
        var sessions = OpenSessions()
        // Devices an SDK call named that have not logged in yet: their first login completes them.
        var unlogged: Set<String> = []
        for (index, event) in recording.events.enumerated() {
            guard inWindow(event) else { continue }
            sessions.note(event)
            let atMs = event["atMs"]?.intValue ?? 0
            if let resource = event["body"]?["resource"]?.stringValue, let device = devices.first(where: { Self.resource(of: $0.json) == resource }) {
                lastSeen[device.name] = atMs
            }
            if event["in"]?.stringValue == "sdk" {
                guard let verb = event["call"]?["do"]?.stringValue, let device = event["device"], let user = event["user"]?.stringValue else { continue }
                let instance = Int(event["instance"]?.intValue ?? 1)
                while devices.count(where: { $0.key == canonical(device) }) < instance {
                    guard let name = try addDevice(device, user: user, at: "events[\(index)].device") else { break }
                    unlogged.insert(name)
                }
                guard let name = self.device(ofKey: canonical(device), instance: instance) else { continue }
                driven.insert(name)
                if ["init", "addDelegate", "removeDelegate"].contains(verb) { manualInit.insert(name) }
                if ["login", "autoLogin", "switchAccount"].contains(verb) {
                    calledLogin[name] = event["call"]?["user"]?.stringValue?.lowercased() ?? user.lowercased()
                }
                continue
            }
            guard event["in"]?.stringValue == "login" else {
                guard let connection = event["connection"]?.intValue, let name = connections[connection] else { continue }
                if event["in"]?.stringValue == "disconnected" { attempts.ended(connection, of: name, atMs: atMs) }
                lastSeen[name] = atMs
                continue
            }
            guard let device = event["device"], let user = event["user"]?.stringValue else {
                throw RecordingError(path: "events[\(index)]", reason: "a login needs user and device {platform, uuid}")
            }
            let connection = event["connection"]!.intValue!
            // An SDK that describes itself otherwise than the harness told it (its own device id,
            // a new one at each login, a gateway without one) is a device logging in as that user
            // whose SDK calls the recording holds: one that has not logged in yet, else one a
            // login was called on, else one without an open connection (its SDK logging in again
            // by itself).
            if !devices.contains(where: { $0.key == canonical(device) }) {
                let ofUser = devices.filter { driven.contains($0.name) && (calledLogin[$0.name] ?? loggedInAs[$0.name] ?? $0.user) == user.lowercased() }
                let named = ofUser.first { unlogged.contains($0.name) } ?? ofUser.first { calledLogin[$0.name] != nil }
                    ?? ofUser.first { !sessions.isOpen($0.name) }
                if let named { aliases[Self.key(device)] = named.key }
            }
            let instances = devices.filter { $0.key == canonical(device) }
            // The SDK's own login says so, except over OpenIM's gateway (the login is the
            // upgrade's); a device whose SDK calls the recording holds logs in by itself when no
            // login call came since its last login.
            let automatic = event["autoLogin"]?.boolValue == true
                || (instances.contains { driven.contains($0.name) } && !instances.contains { calledLogin[$0.name] != nil })
            if automatic { automaticLogins.insert(index) }
            // A device that logs in again while its previous connection is still open is
            // another instance of it (a second tab with the same device id); the SDK's own
            // login is the instance that lost its connection.
            let free = instances.last { sessions.free($0.name, for: connection) }
            let name: String
            if let known = free ?? (automatic ? instances.last : nil) {
                name = known.name
                if automatic, let seen = lastSeen[name] { reconnects[name, default: []].append(max(atMs - seen, 0)) }
            } else {
                guard let added = try addDevice(device, user: user, at: "events[\(index)]") else { continue }
                name = added
                unlogged.insert(name)
            }
            if unlogged.remove(name) != nil, let at = devices.firstIndex(where: { $0.name == name }) {
                var members = devices[at].json.objectValue ?? []
                if event["dialect"]?.stringValue == "openim", !members.contains(where: { $0.key == "profile" }) { members.append(("profile", "openim")) }
                let sync = event["sync"]?.arrayValue ?? []
                if !sync.isEmpty { members.append(("syncTypes", .array(sync))) }
                devices[at].json = .object(members)
            }
            connections[connection] = name
            sessions.assign(connection, to: name)
            lastSeen[name] = atMs
            calledLogin[name] = nil
            loggedInAs[name] = user.lowercased()
            attempts.login(name, on: connection, atMs: atMs, automatic: automatic)
        }
        let endMs = recording.stoppedAtMs ?? recording.events.last?["atMs"]?.intValue ?? recording.startedAtMs
        for device in devices where !sessions.isOpen(device.name) {
            if let limit = attempts.gaveUp(device.name, endMs: endMs, lastWaitMs: reconnects[device.name]?.last ?? 0) { maxAttempts[device.name] = limit }
        }
        let dialects = Set(recording.events.compactMap { $0["in"]?.stringValue == "login" ? $0["dialect"]?.stringValue : nil })
        if dialects.contains("msync") { notes.append("recorded over msync: run the export with --transport msync") }
        if dialects.contains("openim") { notes.append("recorded over OpenIM's gateway: run the export with --transport openim") }
    }

    /// The key of the fixture device a recorded `device` is (``key(_:)``, or the key its SDK call named).
    func canonical(_ device: JSONValue) -> String {
        let key = Self.key(device)
        return aliases[key] ?? key
    }

    /// A new fixture device for a recorded `device` of `user`, named after its platform; nil
    /// when `--devices` leaves it out.
    mutating func addDevice(_ device: JSONValue, user: String, at path: String) throws(RecordingError) -> String? {
        guard let platform = device["platform"]?.stringValue, let uuid = device["uuid"]?.stringValue else {
            throw RecordingError(path: path, reason: "a device needs {platform, uuid}")
        }
        let resource = device["resource"]?.stringValue
        let base = String(platform.filter { $0.isLetter || $0.isNumber })
        var name = base
        var counter = 1
        while devices.contains(where: { $0.name == name }) {
            counter += 1
            name = "\(base)-\(counter)"
        }
        guard kept(user: user, resource: resource ?? "\(Self.resourcePrefix(platform))_\(uuid)", name: name) else { return nil }
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(name)), ("user", .string(user.lowercased())), ("platform", .string(platform)),
            ("deviceName", .string(device["name"]?.stringValue ?? "")), ("uuid", .string(uuid)),
        ]
        if let resource { members.append(("resource", .string(resource))) }
        if let text = device["extension"]?.stringValue, !text.isEmpty { members.append(("extension", .string(text))) }
        if platform.hasPrefix("openim:") { members.append(("profile", "openim")) }
        devices.append((name, Self.key(device), .object(members), user.lowercased()))
        return name
    }

    /// The devices' users the seed does not have.
    func usersRegisteredMidway() -> [String] {
        let seeded = Set((recording.seedApp["users"]?.arrayValue ?? []).compactMap { $0["username"]?.stringValue })
        var added: [String] = []
        for device in devices where !seeded.contains(device.user) && !added.contains(device.user) { added.append(device.user) }
        return added
    }

    /// The resource a fixture device logs in with.
    static func resource(of device: JSONValue) -> String {
        device["resource"]?.stringValue
            ?? "\(device["platform"]?.stringValue.map(Self.resourcePrefix) ?? "")_\(device["uuid"]?.stringValue ?? "")"
    }

    /// `ios` → `ios`, `custom:3` → `custom3`, `openim:1` → the OpenIM platform's prefix.
    static func resourcePrefix(_ platform: String) -> String {
        if platform.hasPrefix("openim:"), let id = Int(platform.dropFirst(7)), let known = OpenIMPlatform(rawValue: id) {
            return known.resourcePrefix
        }
        return String(platform.filter { $0 != ":" })
    }

    /// Whether `--devices` keeps a device (by export name, resource or user).
    func kept(user: String, resource: String, name: String?) -> Bool {
        guard let wanted = options.devices else { return true }
        return wanted.contains(user) || wanted.contains(resource) || name.map(wanted.contains) == true
    }

    func inWindow(_ event: JSONValue) -> Bool {
        let since = (event["atMs"]?.intValue ?? 0) - recording.startedAtMs
        return since >= (options.fromMs ?? .min) && since <= (options.toMs ?? .max)
    }

    mutating func walk() throws(RecordingError) {
        for (index, event) in recording.events.enumerated() where inWindow(event) {
            let atMs = event["atMs"]!.intValue!
            if let verb = event["in"]?.stringValue {
                if verb == "ping" && options.dropPings { continue }
                let made = try step(for: event, verb: verb, at: index)
                // A ping and the SDK's own login are no steps, but their times are the devices'
                // timers: the replay's clients act there by themselves.
                let timed = verb == "ping" || automaticLogins.contains(index)
                guard made != nil || timed else { continue }
                moveClock(to: atMs)
                if let made {
                    flush()
                    steps.append(made)
                }
            } else if event["out"]?.stringValue == "journal" {
                guard let device = device(of: event), let frame = event["event"].flatMap(SentCheck.normalized) else { continue }
                // What an action caused follows it, a millisecond later on a flowing clock; only
                // what the server's own timers send (token events, idle closes) moves the clock.
                if Self.timerFrames.contains(frame["op"]?.stringValue ?? "") || frame["closed"] == .int(1001) { moveClock(to: atMs) }
                pending.append((device, frame))
            } else if event["out"]?.stringValue == "callbacks", options.callbacks {
                for callback in event["callbacks"]?.arrayValue ?? [] {
                    let instance = Int(callback["instance"]?.intValue ?? 1)
                    guard let device = device(ofResource: callback["resource"], instance: instance), let name = callback["name"]?.stringValue else { continue }
                    recordedCallbacks.append((device, name))
                    if let profile = callback["profile"]?.stringValue { profiles[device] = profile }
                }
            }
        }
        // The session lasted until the recording stopped: timers that fired by then (a login
        // timeout, a reconnect) fire in the replay too.
        if let end = recording.stoppedAtMs ?? recording.events.last?["atMs"]?.intValue,
            options.toMs.map({ end - recording.startedAtMs <= $0 }) ?? true
        {
            moveClock(to: end)
        }
        flush()
        checkCallbacks()
    }

    /// At the end, each device's whole sequence of recorded callbacks, by name.
    mutating func checkCallbacks() {
        var reported: [String] = []
        for callback in recordedCallbacks where !reported.contains(callback.device) { reported.append(callback.device) }
        for device in reported {
            let names = recordedCallbacks.filter { $0.device == device }.map { JSONValue.string($0.name) }
            steps.append(.object([
                ("expect", "sequence"), ("device", .string(device)), ("since", "start"), ("gaps", false), ("complete", true),
                ("callbacks", .array(names)),
            ]))
        }
    }

    /// Frames the server's timers send.
    static let timerFrames: Set<String> = ["token.willExpire", "token.expired"]

    /// The device a sent event went to: by its connection, else by its resource.
    func device(of event: JSONValue) -> String? {
        if let id = event["connection"]?.intValue, let name = connections[id] { return name }
        return device(ofResource: event["resource"])
    }

    /// The `instance` (from 1) of the device identified by `key` (``key(_:)``).
    func device(ofKey key: String?, instance: Int) -> String? {
        let instances = devices.filter { $0.key == key }
        return instance >= 1 && instance <= instances.count ? instances[instance - 1].name : nil
    }

    /// The device that logs in with `resource`: its `instance` (1-based, in order of first
    /// login) when instances of one device share it.
    func device(ofResource resource: JSONValue?, instance: Int = 1) -> String? {
        guard let resource = resource?.stringValue else { return nil }
        let instances = devices.filter { Self.resource(of: $0.json) == resource }
        return instance >= 1 && instance <= instances.count ? instances[instance - 1].name : instances.first?.name
    }

    /// Checks what was sent so far, then moves the clock to `atMs` if it stands before.
    mutating func moveClock(to atMs: Int64) {
        guard atMs > nowMs else { return }
        flush()
        steps.append(.object([("advance", .string(DurationText.format(atMs - nowMs)))]))
        nowMs = atMs
    }

    /// The `sent` checks of what the server sent since the last step.
    mutating func flush() {
        guard !pending.isEmpty else { return }
        var order: [String] = []
        for frame in pending where !order.contains(frame.device) { order.append(frame.device) }
        for device in order {
            let frames = pending.filter { $0.device == device }.map(\.frame)
            steps.append(.object([("expect", "sent"), ("device", .string(device)), ("frames", .array(frames))]))
        }
        sinceOrderCheck += pending
        pending = []
        guard options.order == .global, Set(sinceOrderCheck.map(\.device)).count > 1 else { return }
        let frames = sinceOrderCheck.map { JSONValue.object([("device", .string($0.device))] + ($0.frame.objectValue ?? [])) }
        steps.append(.object([("expect", "sent"), ("frames", .array(frames))]))
        sinceOrderCheck = []
    }

    func document() -> JSONValue {
        let seed = recording.seedApp
        var app: [(key: String, value: JSONValue)] = [("name", .string(appName))]
        for key in ["registrationMode", "loginPolicy", "serviceEnabled", "activeUserLimit", "defaultTokenTTLSeconds", "restRateLimitPerSecond"] {
            if let value = seed[key], !value.isNull { app.append((key, value)) }
        }
        let users: [JSONValue] = (seed["users"]?.arrayValue ?? []).compactMap { user in
            guard let name = user["username"]?.stringValue else { return nil }
            return user["activated"]?.boolValue == false ? .object([("username", .string(name)), ("activated", false)]) : .string(name)
        }
        app.append(("users", .array(users + addedUsers.map(JSONValue.string))))
        let name = options.name ?? "\(options.rule) recorded session of \(recording.app) (\(devices.count) devices, \(steps.count) steps)"
        return .object([
            ("name", .string(name)),
            ("description", .string("Exported by imock record export from a recording of \(recording.app) started at \(recording.startedAtMs) (docs/RECORD.md).")),
            ("rules", .array([.object([("id", .string(options.rule)), ("source", "recorded session")])])),
            ("apps", .array([.object(app)])),
            ("devices", .array(devices.map { device in
                var members = (device.json.objectValue ?? []).filter { $0.key != "profile" || profiles[device.name] == nil }
                if let profile = profiles[device.name], profile != "easemob" { members.append(("profile", .string(profile))) }
                if manualInit.contains(device.name) { members.append(("init", "manual")) }
                guard let waits = reconnects[device.name] else { return .object(members) }
                var reconnect: [(key: String, value: JSONValue)] = [("waits", .array(waits.map { .string(DurationText.format($0)) }))]
                if let limit = maxAttempts[device.name] { reconnect.append(("maxAttempts", .int(Int64(limit)))) }
                return .object(members + [("reconnect", .object(reconnect))])
            })),
            ("steps", .array(steps)),
        ])
    }
}
