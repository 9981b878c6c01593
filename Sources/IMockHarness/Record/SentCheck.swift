import IMockCore

/// `{"expect": "sent", "device": "phone", "frames": [{"op": "login.ok"}, {"closed": 4206}]}`:
/// the frames the server sent the device since the previous `sent` check of that device are
/// exactly these, in order; without `device`, the frames of every fixture device (each frame
/// naming its `device`) since the previous such check, in the server's order. Frames are told as
/// the control API's journal tells them, each a subset (docs/RECORD.md § Checking what was sent).
public struct SentCheck: Sendable {
    /// The device, or nil for every device in the server's order.
    public var device: String?
    /// The frames as written (for reports).
    public var frames: [JSONValue]
    /// Their matchers.
    var matchers: [ValueMatcher]

    /// `sent to phone: login.ok, kicked 206, closed 4206`.
    public var summary: String {
        "sent to \(device ?? "every device"): " + (frames.isEmpty ? "nothing" : frames.map(Self.describe).joined(separator: ", "))
    }

    /// `login.ok`, `kicked code=206`, `closed 4206`, `phone: login.ok`.
    static func describe(_ frame: JSONValue) -> String {
        let owner = frame["device"]?.stringValue.map { $0 + ": " } ?? ""
        if let code = frame["closed"] { return owner + "closed \(code.encodedString)" }
        let rest = (frame.objectValue ?? []).filter { $0.key != "op" && $0.key != "device" }
        return owner + (frame["op"]?.stringValue ?? "?") + rest.map { " \($0.key)=\($0.value.encodedString)" }.joined()
    }

    static func parse(_ reader: FixtureReader, devices: Set<String>) throws(FixtureError) -> SentCheck {
        var device: String?
        if let name = try reader.string("device") {
            guard devices.contains(name) else {
                throw reader.fail("device", "unknown device \"\(name)\" (devices: \(devices.sorted().joined(separator: ", ")))")
            }
            device = name
        }
        let values = try reader.requiredArray("frames")
        var matchers: [ValueMatcher] = []
        for (index, value) in values.enumerated() {
            let path = "\(reader.at("frames"))[\(index)]"
            guard let members = value.objectValue else { throw FixtureError(path: path, reason: "must be an object") }
            guard members.contains(where: { $0.key == "op" || $0.key == "closed" }) else {
                throw FixtureError(path: path, reason: "names no frame: give \"op\" (login.ok, kicked …) or \"closed\"")
            }
            let owner = value["device"]?.stringValue
            if device == nil {
                guard let owner, devices.contains(owner) else {
                    throw FixtureError(path: path, reason: "needs \"device\", a device of the fixture, when the check names none")
                }
            } else if owner != nil {
                throw FixtureError(path: path, reason: "\"device\" is the check's; leave it out of its frames")
            }
            matchers.append(try MatcherParser.subset(value, at: path))
        }
        return SentCheck(device: device, frames: values, matchers: matchers)
    }

    /// A journal entry's event as checks see it: the frame without what differs from run to run
    /// (request ids, server times, token expiry times, resources, English texts), or
    /// `{"closed": code}`.
    public static func normalized(_ event: JSONValue) -> JSONValue? {
        if event["type"]?.stringValue == "closed" { return event["code"].map { .object([("closed", $0)]) } }
        guard let members = event["frame"]?.objectValue else { return nil }
        return .object(members.filter { !volatileKeys.contains($0.key) })
    }

    /// Members of a journal frame a check never looks at.
    static let volatileKeys: Set<String> = ["id", "serverTime", "tokenExpiresAt", "expiresAt", "resource", "message", "reason"]
}

/// What a scenario's `sent` checks have seen: how many frames of each device ("" for all) they
/// covered, and the device each connection was found to be when its resource could not say.
struct SentState {
    var seen: [String: Int] = [:]
    var connections: [String: String] = [:]
    /// The last callback put into the recording (``ScenarioRun/recordCallbacks()``).
    var recordedSequence: UInt64 = 0
}
