import IMockClient
import IMockCore

/// A generated scenario of `imock explore`: a small world (one app, its policy, users, devices)
/// and a list of operations. It becomes a fixture (``fixtureDocument(name:description:rules:labels:checks:listenMs:)``), so the
/// harness runs it like any other and a finding is kept as a fixture file.
public struct ExploreProgram: Sendable, Equatable {
    /// The callback vocabulary of every device.
    public var profile: SDKProfile
    /// The app's `loginPolicy` (docs/SEED.md § Login policy).
    public var policy: JSONValue
    /// The users of the app.
    public var users: [String]
    /// The devices.
    public var devices: [ExploreDevice]
    /// What happens, in order.
    public var operations: [ExploreOperation]

    /// The device named `name`.
    public func device(_ name: String) -> ExploreDevice? { devices.first { $0.name == name } }
}

/// One SDK instance of a program.
public struct ExploreDevice: Sendable, Equatable {
    /// The fixture name (`d1`, …).
    public var name: String
    /// The user it logs in as.
    public var user: String
    /// The fixture platform (`ios`, `web`, `openim:1`, …).
    public var platform: String
}

/// One operation of a program: a fixture step.
public enum ExploreOperation: Sendable, Equatable {
    /// `login` with a fresh token of `ttlSeconds` (nil: the app's default).
    case login(device: String, ttlSeconds: Int64?)
    /// `logout(unbindDeviceToken: false)`.
    case logout(device: String)
    /// A 1:1 text message.
    case send(device: String, to: String, text: String)
    /// `renewToken` with a fresh token of `ttlSeconds`.
    case renewToken(device: String, ttlSeconds: Int64)
    /// `PUT users/{u}/password` (216, S7).
    case changePassword(user: String)
    /// `DELETE users/{u}` (207, S7).
    case deleteUser(user: String)
    /// `POST users/{u}/deactivate` (305, S7).
    case deactivate(user: String)
    /// `POST users/{u}/activate`.
    case activate(user: String)
    /// `GET users/{u}/disconnect` (217, S7).
    case disconnect(user: String)
    /// A control-API kick of one device or all of the user's, with any code.
    case kick(user: String, device: String?, code: Int)
    /// Expire the user's tokens now (control API).
    case expireToken(user: String)
    /// A network change of one device.
    case network(NetworkChange.Kind, device: String)
    /// A move of the virtual clock.
    case advance(ms: Int64)

    /// The device it acts on, if it is an SDK call or a network change.
    public var device: String? {
        switch self {
        case .login(let device, _), .logout(let device), .send(let device, _, _), .renewToken(let device, _), .network(_, let device):
            return device
        case .kick(_, let device, _): return device
        default: return nil
        }
    }

    /// The users it names.
    public var users: [String] {
        switch self {
        case .send(_, let to, _): return [to]
        case .changePassword(let user), .deleteUser(let user), .deactivate(let user), .activate(let user), .disconnect(let user),
            .kick(let user, _, _), .expireToken(let user):
            return [user]
        default: return []
        }
    }

    /// The adapter command it needs, if it is an SDK call (`login`, `logout`, `send`, `renewToken`).
    public var commandName: String? {
        switch self {
        case .login: return "login"
        case .logout: return "logout"
        case .send: return "send"
        case .renewToken: return "renewToken"
        default: return nil
        }
    }

    /// Whether a session may start on its device with it (the end of "no reconnect by itself").
    public var startsLogin: Bool {
        if case .login = self { return true }
        return false
    }

    /// The fixture step.
    public var step: JSONValue {
        switch self {
        case .login(let device, let ttl):
            var step: [(key: String, value: JSONValue)] = [("do", "login"), ("device", .string(device))]
            if let ttl { step.append(("token", ["ttl": .string(DurationText.format(ttl * 1000))])) }
            return .object(step)
        case .logout(let device): return ["do": "logout", "device": .string(device)]
        case .send(let device, let to, let text): return ["do": "send", "device": .string(device), "to": .string(to), "text": .string(text)]
        case .renewToken(let device, let ttl):
            return ["do": "renewToken", "device": .string(device), "token": ["ttl": .string(DurationText.format(ttl * 1000))]]
        case .changePassword(let user): return ["rest": .string("PUT users/\(user)/password"), "body": ["newpassword": "changed-pw"]]
        case .deleteUser(let user): return ["rest": .string("DELETE users/\(user)")]
        case .deactivate(let user): return ["rest": .string("POST users/\(user)/deactivate")]
        case .activate(let user): return ["rest": .string("POST users/\(user)/activate")]
        case .disconnect(let user): return ["rest": .string("GET users/\(user)/disconnect")]
        case .kick(let user, let device, let code):
            var step: [(key: String, value: JSONValue)] = [("control", "kick"), ("user", .string(user))]
            if let device { step.append(("device", .string(device))) }
            step.append(("code", .int(Int64(code))))
            return .object(step)
        case .expireToken(let user): return ["control": "expireToken", "user": .string(user)]
        case .network(let kind, let device): return ["network": .string(kind.rawValue), "device": .string(device)]
        case .advance(let ms): return ["advance": .string(DurationText.format(ms))]
        }
    }
}

extension ExploreProgram {
    /// The program as a fixture document: its world, its operations as steps, then `checks`
    /// (at least one step of a fixture must be able to fail; without checks, a check that holds).
    /// `name`, `description` and `rules` describe it; `labels` puts a label on operations by index.
    /// With `listenMs`, the checks are preceded by an `absent … for` that, for a real-time
    /// adapter, listens that long to the SDK's own timers (`RunSettings.realTimeQuiet` bounds it).
    public func fixtureDocument(
        name: String, description: String, rules: [RuleReference], labels: [Int: String] = [:], checks: [(after: Int, step: JSONValue)] = [],
        listenMs: Int64? = nil
    ) -> JSONValue {
        let devices: [JSONValue] = devices.map {
            ["name": .string($0.name), "user": .string($0.user), "platform": .string($0.platform), "profile": .string(profile.rawValue)]
        }
        let nothing = JSONValue.string("\(self.devices.first?.name ?? "d1"): imockExploreNothing")
        var checks = checks
        if let listenMs {
            checks.insert((operations.count - 1, ["expect": "absent", "callbacks": [nothing], "for": .string(DurationText.format(listenMs))]), at: 0)
        } else if checks.isEmpty {
            checks = [(operations.count - 1, ["expect": "absent", "callbacks": [nothing]])]
        }
        var steps: [JSONValue] = []
        for (index, operation) in operations.enumerated() {
            var step = operation.step
            if let label = labels[index], case .object(var members) = step {
                members.append(("label", .string(label)))
                step = .object(members)
            }
            steps.append(step)
            steps += checks.filter { $0.after == index }.map(\.step)
        }
        return [
            "name": .string(name), "description": .string(description),
            "rules": .array(rules.map { ["id": .string($0.id), "source": .string($0.source)] }),
            "apps": [["name": "app", "loginPolicy": policy, "users": .array(users.map { .string($0) })]],
            "devices": .array(devices), "steps": .array(steps),
        ]
    }

    /// The program as a fixture the harness runs (`listenMs`: see ``fixtureDocument(name:description:rules:labels:checks:listenMs:)``).
    public func fixture(name: String = "explore", listenMs: Int64? = nil) throws(FixtureError) -> Fixture {
        let document = fixtureDocument(name: name, description: "", rules: [ExploreProgram.runRule], listenMs: listenMs)
        var fixture = try FixtureParser.parse(document.encoded(), file: name)
        fixture.file = name
        return fixture
    }

    /// The rule a generated program names before a property cites one: C9 (no recoverable drop
    /// is missed, no session end recovered) is what every program exercises.
    public static let runRule = RuleReference(id: "C9", source: "004 § 自动重连")
}
