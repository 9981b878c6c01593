import IMockCore

/// Which resource the server knows each fixture device by. A real SDK may name itself (the
/// Easemob Web SDK logs in as `webim_random_…`), so a device's resource is the one its login
/// produced, learned from the journal's `login.ok`; until then, the fixture's
/// `<platform>_<uuid>` (or its `resource`).
struct DeviceResources {
    private var learned: [String: String] = [:]
    /// Devices whose login is under way and not yet seen answered, in the order they started,
    /// with the app and user they log in to.
    private var awaiting: [(device: String, app: String, user: String)] = []

    /// The resource the server knows `device` by.
    func resource(of device: FixtureDevice) -> String { learned[device.name] ?? device.resource }

    /// The fixture device of `app` known by `resource`.
    func device(withResource resource: String?, app: String, in devices: [FixtureDevice]) -> String? {
        devices.first { $0.app == app && self.resource(of: $0) == resource }?.name
    }

    /// `device` started a login to `app` as `user`.
    mutating func loginStarted(_ device: String, app: String, user: String) {
        awaiting.removeAll { $0.device == device }
        awaiting.append((device, app, user))
    }

    /// A `login.ok` of `user` under `resource` in `app`: the device already known by it is
    /// answered; else the earliest device logging in as `user` takes it as its resource.
    mutating func loginAnswered(resource: String, app: String, user: String, devices: [FixtureDevice]) {
        if let known = device(withResource: resource, app: app, in: devices) {
            awaiting.removeAll { $0.device == known }
            return
        }
        guard let index = awaiting.firstIndex(where: { $0.app == app && $0.user == user }) else { return }
        learned[awaiting.remove(at: index).device] = resource
    }
}

extension DeviceResources {
    /// `value` with every learned resource written as the fixture names it (`<platform>_<uuid>`
    /// or its `resource`), so that an answer listing resources matches the fixture's words.
    func inFixtureWords(_ value: JSONValue, devices: [FixtureDevice]) -> JSONValue {
        let renamed = renaming(devices, from: \.learned, to: \.fixture)
        guard !renamed.isEmpty else { return value }
        func rename(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(let text): return .string(renamed[text] ?? text)
            case .array(let elements): return .array(elements.map(rename))
            case .object(let members): return .object(members.map { ($0.key, rename($0.value)) })
            default: return value
            }
        }
        return rename(value)
    }

    /// `path` with each segment that is a fixture device's resource replaced by the one it
    /// logged in under (`users/alice/disconnect/ios_phone`).
    func inServerWords(path: String, devices: [FixtureDevice]) -> String {
        let renamed = renaming(devices, from: \.fixture, to: \.learned)
        guard !renamed.isEmpty else { return path }
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { renamed[String($0)] ?? String($0) }.joined(separator: "/")
    }
}

extension DeviceResources {
    /// A learned resource and the one the fixture gives the same device.
    private struct Names {
        var learned: String
        var fixture: String
    }

    /// One of each pair of names → the other, for the devices whose resource was learned.
    private func renaming(_ devices: [FixtureDevice], from: KeyPath<Names, String>, to: KeyPath<Names, String>) -> [String: String] {
        let pairs = learned.compactMap { name, resource in
            devices.first { $0.name == name }.map { Names(learned: resource, fixture: $0.resource) }
        }
        return Dictionary(pairs.map { ($0[keyPath: from], $0[keyPath: to]) }, uniquingKeysWith: { first, _ in first })
    }
}

extension ScenarioRun {
    /// The resource the server knows fixture device `name` by (``DeviceResources``).
    func resource(of name: String) -> String { resources.resource(of: fixture.device(name)!) }

    /// The fixture device of `app` the server knows by `resource`.
    func device(withResource resource: String?, app: String) -> String? {
        resources.device(withResource: resource, app: app, in: fixture.devices)
    }

    /// Learns from a journal entry of `app` (a `login.ok`) which resource a device logged in under.
    func learnResource(from entry: JSONValue, app: String) {
        guard entry["event"]?["frame"]?["op"]?.stringValue == "login.ok",
            let resource = entry["resource"]?.stringValue, let user = entry["user"]?.stringValue
        else { return }
        resources.loginAnswered(resource: resource, app: app, user: user, devices: fixture.devices)
    }
}
