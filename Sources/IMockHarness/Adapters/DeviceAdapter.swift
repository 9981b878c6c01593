import IMockClient
import IMockCore
import Synchronization

/// Whose clock an adapter's SDK keeps its timers on.
public enum AdapterClock: String, Sendable {
    /// The run's virtual clock: the SDK's timers fire in deadline order as it moves (the built-in
    /// reference client's are on the link's `Timeline`; an external adapter reports its own with
    /// `pendingTimers` and the runner fires them).
    case virtual
    /// Real time: the SDK runs its own timers; the runner moves the server's clock and waits for
    /// callbacks in real time with bounded timeouts (an external SDK).
    case realTime = "realtime"
}

/// What a device needs to be created: the same for every adapter (the `init` command).
public struct DeviceSetup: Sendable {
    /// The device as the fixture describes it.
    public var device: FixtureDevice
    /// `org#app` on the server.
    public var appKey: String
    /// `ws://host:port/ws`.
    public var serverURL: String
    /// The seed of the SDK's reconnect jitter.
    public var randomSeed: UInt64
}

/// A command for one device: the adapter contract (see `docs/FIXTURES.md`, JSON lines).
public enum AdapterCommand: Sendable {
    case initialize(DeviceSetup)
    case addDelegate
    case removeDelegate
    case login(user: String, token: String, offline: Bool)
    case logout(unbind: Bool)
    case renewToken(String)
    case send(to: String, text: String)
    case ack(messageId: String)
    case queryDevices(user: String, token: String)
    case restart
    case state
    case shutdown

    /// The command's name in the JSON-lines contract.
    public var name: String {
        switch self {
        case .initialize: "init"
        case .addDelegate: "addDelegate"
        case .removeDelegate: "removeDelegate"
        case .login(_, _, let offline): offline ? "autoLogin" : "login"
        case .logout: "logout"
        case .renewToken: "renewToken"
        case .send: "send"
        case .ack: "ack"
        case .queryDevices: "queryDevices"
        case .restart: "restart"
        case .state: "state"
        case .shutdown: "shutdown"
        }
    }
}

/// How a command ended.
public enum AdapterReply: Sendable {
    /// The SDK call completed: `{"error": null | {"code", "message"}, …}` (or a state object).
    case result(JSONValue)
    /// The adapter could not run it (not initialised, not supported): a harness problem.
    case refused(String)
}

/// A timer an SDK has pending on the virtual clock.
public struct PendingTimer: Sendable, Equatable {
    /// The device whose timer it is.
    public var device: String
    /// `loginTimeout`, `reconnect`, `keepAlive`, `pongTimeout`.
    public var name: String
    /// Due time on the virtual clock, epoch ms.
    public var dueMs: Int64
}

/// Drives devices: the built-in reference client, or an external process. Callbacks go to the
/// ``Observations`` the adapter was made with.
public protocol DeviceAdapter: AnyObject, Sendable {
    /// The adapter's name (`reference`, or the external adapter's own).
    var name: String { get }
    /// Whose clock its SDK's timers follow.
    var clock: AdapterClock { get }
    /// The commands it supports (by contract name) and the profiles; nil: everything.
    var supportedCommands: Set<String>? { get }
    /// The profiles it renders; nil: all.
    var supportedProfiles: Set<String>? { get }
    /// Runs a command; returns when the SDK call completed.
    func execute(device: String, _ command: AdapterCommand) async -> AdapterReply
    /// Hands a command to the SDK and returns once it is under way (default: in a task).
    func begin(device: String, _ command: AdapterCommand) -> PendingReply
    /// Returns once every frame the server sent to the devices (except `skipping`) has been
    /// handled and its callbacks observed, and no connection attempt is under way.
    func settle(skipping: Set<String>, guard: WaitGuard) async throws(ScenarioFailure)
    /// The virtual-clock timers the runner must fire itself (an external adapter's; empty for
    /// real-time adapters and for the reference client, whose timers are on the `Timeline`).
    func pendingTimers() async -> [PendingTimer]
    /// Fires a pending timer now.
    func fire(_ timer: PendingTimer) async
    /// Shuts every device down.
    func close() async
}

/// The completion of a command already handed to the SDK.
public final class PendingReply: Sendable {
    private let state = Mutex<(reply: AdapterReply?, waiters: [CheckedContinuation<AdapterReply, Never>])>((nil, []))

    /// A reply still to come.
    public init() {}

    /// Delivers the reply (the first one counts).
    public func complete(_ reply: AdapterReply) {
        let waiters = state.withLock { state -> [CheckedContinuation<AdapterReply, Never>] in
            guard state.reply == nil else { return [] }
            state.reply = reply
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: reply) }
    }

    /// Waits for the reply.
    public func value() async -> AdapterReply {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> AdapterReply? in
                if let reply = state.reply { return reply }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

extension DeviceAdapter {
    /// Hands `command` to the SDK and returns at once; the reply comes later. Adapters whose SDK
    /// calls take completion handlers override it so the call is under way when it returns (a
    /// device whose network holds frames is then not waited for, yet its call has started).
    public func begin(device: String, _ command: AdapterCommand) -> PendingReply {
        let pending = PendingReply()
        Task { pending.complete(await execute(device: device, command)) }
        return pending
    }
}
