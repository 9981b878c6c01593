import IMockClient
import IMockCore

extension FixtureParser {
    static let deviceKeys = [
        "name", "app", "user", "platform", "deviceName", "uuid", "resource", "extension", "profile", "syncTypes",
        "init", "adapter", "reconnect", "loginTimeout", "keepAlive",
    ]

    static func parseDevices(_ top: FixtureReader, apps: [FixtureApp]) throws(FixtureError) -> [FixtureDevice] {
        let values = try top.requiredArray("devices")
        var devices: [FixtureDevice] = []
        for (index, value) in values.enumerated() {
            let device = try parseDevice(value, at: "devices[\(index)]", apps: apps)
            guard !devices.contains(where: { $0.name == device.name }) else {
                throw FixtureError(path: "devices[\(index)].name", reason: "device \"\(device.name)\" twice")
            }
            devices.append(device)
        }
        return devices
    }

    private static func parseDevice(_ value: JSONValue, at path: String, apps: [FixtureApp]) throws(FixtureError) -> FixtureDevice {
        let reader = try FixtureReader(value, at: path, allowed: deviceKeys)
        let name = try reader.requiredString("name")
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw reader.fail("name", "must be letters, digits, - and _")
        }
        let appName = try reader.string("app") ?? apps[0].name
        guard let app = apps.first(where: { $0.name == appName }) else {
            throw reader.fail("app", "unknown app \"\(appName)\"")
        }
        let user = try reader.requiredString("user")
        guard app.user(user) != nil else {
            throw reader.fail("user", "unknown user \"\(user)\" of app \"\(appName)\"")
        }
        let platform = try parsePlatform(reader)
        var syncTypes: [SyncType] = []
        for (index, type) in (try reader.array("syncTypes") ?? []).enumerated() {
            guard let text = type.stringValue, let parsed = SyncType(rawValue: text) else {
                throw FixtureError(path: "\(reader.at("syncTypes"))[\(index)]", reason: "must be conversations, contacts or joinedGroups")
            }
            guard !syncTypes.contains(parsed) else {
                throw FixtureError(path: "\(reader.at("syncTypes"))[\(index)]", reason: "repeats \(text)")
            }
            syncTypes.append(parsed)
        }
        let description = DeviceDescription(
            platform: platform, name: try reader.string("deviceName") ?? name, uuid: try reader.string("uuid") ?? name,
            resource: try reader.string("resource"), extensionInfo: try parseExtension(reader))
        let profile = SDKProfile(rawValue: try reader.choice("profile", SDKProfile.allCases.map(\.rawValue)) ?? "easemob")!
        return FixtureDevice(
            name: name, app: appName, user: user, description: description, profile: profile,
            syncTypes: syncTypes, initMode: DeviceInit(rawValue: try reader.choice("init", ["auto", "manual"]) ?? "auto")!,
            adapter: try reader.string("adapter") ?? "reference", reconnect: try parseReconnect(reader, profile: profile),
            loginTimeoutMs: try positive(reader, "loginTimeout"), keepAliveMs: try positive(reader, "keepAlive"))
    }

    private static func positive(_ reader: FixtureReader, _ key: String) throws(FixtureError) -> Int64? {
        guard let ms = try reader.duration(key) else { return nil }
        guard ms > 0 else { throw reader.fail(key, "must be longer than 0") }
        return ms
    }

    /// `ios`, `android`, `windows`, `macos`, `web`, `linux`, `custom:N` (Easemob) or `openim:N`.
    private static func parsePlatform(_ reader: FixtureReader) throws(FixtureError) -> DevicePlatform {
        let text = try reader.string("platform") ?? "ios"
        let fixed: [String: EasemobPlatform] = [
            "ios": .ios, "android": .android, "windows": .windows, "macos": .macos, "web": .web, "linux": .linux,
        ]
        if let platform = fixed[text] { return .easemob(platform) }
        if text.hasPrefix("custom:"), let type = Int(text.dropFirst(7)), (1...100).contains(type) {
            return .easemob(.custom(type))
        }
        if text.hasPrefix("openim:"), let id = Int(text.dropFirst(7)), let platform = OpenIMPlatform(rawValue: id) {
            return .openIM(platform)
        }
        throw reader.fail("platform", "must be ios, android, windows, macos, web, linux, custom:1…100 or openim:1…11, got \"\(text)\"")
    }

    /// A string, or `{"repeat": "x", "count": 1025}` for long extension info (E11).
    private static func parseExtension(_ reader: FixtureReader) throws(FixtureError) -> String {
        guard let value = reader.value("extension") else { return "" }
        if let text = value.stringValue { return text }
        let inner = try FixtureReader(value, at: reader.at("extension"), allowed: ["repeat", "count"])
        let unit = try inner.requiredString("repeat")
        guard let count = try inner.int("count", in: 0...100_000) else { throw inner.fail("count", "is required") }
        return String(repeating: unit, count: Int(count))
    }

    /// `{"min": "1s", "max": "2s", "maxAttempts": 3}`: one band for every attempt; `waits`
    /// (`["1s389ms", "1s16ms"]`): fixed waits of the first reconnects, in order, then the band
    /// (without `min`: the profile's back-off) — a recorded session's (docs/RECORD.md).
    private static func parseReconnect(_ reader: FixtureReader, profile: SDKProfile) throws(FixtureError) -> ReconnectPolicy? {
        guard let value = reader.value("reconnect") else { return nil }
        let inner = try FixtureReader(value, at: reader.at("reconnect"), allowed: ["min", "max", "maxAttempts", "waits"])
        var waits: [Int64] = []
        for (index, item) in (try inner.array("waits") ?? []).enumerated() {
            guard let text = item.stringValue, let ms = DurationText.parse(text), ms >= 0 else {
                throw FixtureError(path: "\(inner.at("waits"))[\(index)]", reason: "must be a duration such as \"1s389ms\"")
            }
            waits.append(ms)
        }
        let attempts = try inner.int("maxAttempts", in: 1...1000).map(Int.init)
        guard let minimum = try inner.duration("min") else {
            guard inner.has("waits"), !inner.has("max") else { throw inner.fail("min", "is required") }
            var policy = profile.rules.reconnect
            policy.waits = waits
            if let attempts { policy.maxAttempts = attempts }
            return policy
        }
        let maximum = try inner.duration("max") ?? minimum
        guard maximum >= minimum else { throw inner.fail("max", "must not be less than min") }
        return ReconnectPolicy(steps: [.init(throughAttempt: nil, minMs: minimum, maxMs: maximum)], maxAttempts: attempts, waits: waits)
    }
}
