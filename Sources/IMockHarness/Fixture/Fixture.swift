import IMockClient
import IMockCore

/// One scenario file: the rules it covers, the apps, users and devices it needs, and the steps
/// (actions, clock moves and expectations) in order. Parsed by ``FixtureParser``.
public struct Fixture: Sendable {
    /// The file it came from (as given on the command line).
    public var file: String
    /// A one-line title, e.g. `E10 a login beyond the device limit kicks the earliest device`.
    public var name: String
    /// What the scenario shows, in a sentence or two.
    public var description: String
    /// The `CONFORMANCE.md` rules it covers, each with the seed section it follows.
    public var rules: [RuleReference]
    /// The failures expected because the server, the reference client or an adapter's SDK does
    /// not honour the rule yet, each naming its step and/or message and maybe scoped to a
    /// transport or adapter: the fixture still runs; the expected failure is reported as such,
    /// any other failure fails, and a pass where one applies fails too (remove the mark).
    public var expectedFailures: [ExpectedFailure]
    /// The apps (tenants) with their settings and users.
    public var apps: [FixtureApp]
    /// The devices, each an SDK instance driven through an adapter.
    public var devices: [FixtureDevice]
    /// The steps and expectations, in order.
    public var steps: [Step]
    /// The row of a parameterised fixture this case runs (`code=206`, also in `name` and
    /// `file`); nil for a fixture without `parameters`.
    public var parameters: String? = nil

    /// The app named `name`.
    public func app(_ name: String) -> FixtureApp? { apps.first { $0.name == name } }

    /// The device named `name`.
    public func device(_ name: String) -> FixtureDevice? { devices.first { $0.name == name } }

    /// The expected failures that hold on `transport` with devices driven by `adapters`.
    public func expectedFailures(transport: ClientTransport, adapters: Set<String>) -> [ExpectedFailure] {
        expectedFailures.filter { $0.applies(transport: transport, adapters: adapters) }
    }

    /// Whether it moves the virtual clock (`advance`, `within`, `absent … for`): on a shared
    /// external server such fixtures cannot run beside others.
    public var movesClock: Bool {
        steps.contains { step in
            switch step.kind {
            case .advance: return true
            case .expect(let expectation):
                if expectation.withinMs != nil { return true }
                if case .absent(_, _?) = expectation.kind { return true }
                return false
            default: return false
            }
        }
    }
}

/// A rule id of `CONFORMANCE.md` and the seed section the fixture follows (`000 § 多设备登录`).
public struct RuleReference: Sendable, Equatable {
    /// `S1` … `X3`.
    public var id: String
    /// `file § section` of the seed document.
    public var source: String
}

/// An app of the fixture. Its key on the server is ``FixtureApp/name`` made unique per run
/// (see ``ScenarioEnvironment``), so fixtures never share state.
public struct FixtureApp: Sendable {
    /// The name steps use to refer to it (`"app"` when only one).
    public var name: String
    /// The app settings in seed form (`registrationMode`, `loginPolicy`, `serviceEnabled`, …).
    public var settings: [(key: String, value: JSONValue)]
    /// The users, with their passwords.
    public var users: [FixtureUser]

    /// The user named `username`.
    public func user(_ username: String) -> FixtureUser? { users.first { $0.username == username } }
}

/// A user of an app.
public struct FixtureUser: Sendable, Equatable {
    /// The name (lower case).
    public var username: String
    /// The password (`<name>-password` unless given).
    public var password: String
    /// False: banned (deactivated) from the start.
    public var activated: Bool
}

/// How a device comes into being.
public enum DeviceInit: String, Sendable {
    /// Created and its delegate added before the first step.
    case auto
    /// Only by the steps `init` and `addDelegate` (C4, O1).
    case manual
}

/// One SDK instance.
public struct FixtureDevice: Sendable {
    /// The name steps and expectations use (`phone`, `pad`).
    public var name: String
    /// The app it logs in to.
    public var app: String
    /// The user it logs in as unless a step says otherwise.
    public var user: String
    /// The login device description: platform, name, UUID, resource, extension info (E11).
    public var description: DeviceDescription
    /// The callback vocabulary.
    public var profile: SDKProfile
    /// The data-sync types asked for at login (E4, C11).
    public var syncTypes: [SyncType]
    /// Automatic or step-driven creation.
    public var initMode: DeviceInit
    /// The adapter that drives it: `reference` (built in) unless a run maps it elsewhere.
    public var adapter: String
    /// The reconnect back-off; nil: the profile's.
    public var reconnect: ReconnectPolicy?
    /// The login timeout, ms; nil: the client's default.
    public var loginTimeoutMs: Int64?
    /// The keep-alive interval, ms; nil: the client's default.
    public var keepAliveMs: Int64?

    /// The resource the server gives it: the chosen one, or `<platform>_<uuid>`.
    public var resource: String {
        description.resource ?? "\(description.platform.resourcePrefix)_\(description.uuid)"
    }
}
