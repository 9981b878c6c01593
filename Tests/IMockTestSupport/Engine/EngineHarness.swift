import IMockCommon
import IMockCore
import Synchronization

/// A directory, a session engine and a virtual clock whose wake-ups are driven as the server's
/// hub drives them, in the engine's own words: `SessionCommand`s in, `SessionOutput`s out. The
/// app `acme#chat` has users alice, bob and carol. Dialect tests wrap it to run the outputs
/// through their encoding.
public struct EngineHarness {
    /// The users and tokens.
    public var directory = Directory(settings: DirectorySettings(passwordIterations: 1))
    /// The engine under test.
    public var engine: SessionEngine
    /// The run's clock and timers, as the server uses them (the engine's wake-up rides on it).
    public let clock = Timeline(mode: .virtual, startMs: 1_000_000)
    /// The app of every login.
    public let app: AppKey
    private let fired = FiredWakeUps()
    private var wakeUp: Timeline.Timer?

    /// The app key of ``app``.
    public static let appKeyText = "acme#chat"

    /// An engine with `decider`, an app with `settings` and its three users.
    public init(
        settings: AppSettings = AppSettings(), decider: any LoginDecider = AcceptAllLoginDecider(),
        configuration: SessionEngineConfiguration = SessionEngineConfiguration()
    ) throws {
        engine = SessionEngine(configuration: configuration, decider: decider)
        app = try AppKey(parsing: Self.appKeyText)
        try directory.createApp(app, settings: settings)
        for name in ["alice", "bob", "carol"] {
            try directory.registerUser(NewUser(username: name, password: "secret"), in: app, nowMs: clock.nowMs)
        }
    }

    /// The clock's time.
    public var nowMs: Int64 { clock.nowMs }

    /// The engine's pending token timers.
    public var pendingTimers: Int { engine.pendingTokenTimerCount }

    /// A user token; `ttl` in seconds, 0 = never expires.
    public mutating func token(_ user: String, ttl: Int64 = 3600) throws -> String {
        try directory.issueInheritedUserToken(in: app, username: user, autoCreateUser: false, ttlSeconds: ttl, nowMs: nowMs)
            .token.token
    }

    /// Keeps the engine's wake-up among `outputs` on the timeline, as the hub does (one entry for
    /// all its timers); returns `outputs`.
    @discardableResult
    public mutating func apply(_ outputs: [SessionOutput]) -> [SessionOutput] {
        for case .wake(let atMs) in outputs {
            let fired = self.fired
            if let wakeUp { clock.cancel(wakeUp) }
            wakeUp = clock.schedule(at: atMs) { fired.append(atMs) }
        }
        return outputs
    }

    /// Connection `connection` opened.
    @discardableResult
    public mutating func open(_ connection: UInt64) -> [SessionOutput] {
        apply(engine.connectionOpened(ConnectionID(connection), nowMs: nowMs))
    }

    /// `command` arrived on `connection`.
    @discardableResult
    public mutating func handle(_ connection: UInt64, _ command: SessionCommand, faults: CommandFaults = .none) -> [SessionOutput] {
        apply(engine.handle(command, on: ConnectionID(connection), faults: faults, nowMs: nowMs, directory: &directory))
    }

    /// Connection `connection` closed.
    @discardableResult
    public mutating func close(_ connection: UInt64) -> [SessionOutput] {
        apply(engine.connectionClosed(ConnectionID(connection), nowMs: nowMs))
    }

    /// Opens `connection` (again, for a second login on it) and logs `user` in with a fresh token
    /// unless one is given.
    @discardableResult
    public mutating func login(
        _ connection: UInt64, _ user: String, token: String? = nil, platform: DevicePlatform = .easemob(.ios),
        uuid: String? = nil, name: String = "", extensionInfo: String = "", resource: String? = nil,
        autoLogin: Bool = false, sync: [SyncType] = [], tag: String = "L", faults: CommandFaults = .none
    ) throws -> [SessionOutput] {
        let device = DeviceDescription(
            platform: platform, name: name, uuid: uuid ?? "dev-\(connection)", resource: resource, extensionInfo: extensionInfo)
        let request = LoginRequest(
            appKey: Self.appKeyText, user: user, token: try token ?? self.token(user), device: device, autoLogin: autoLogin,
            sync: sync)
        open(connection)
        return handle(connection, .login(RequestTag(tag), request), faults: faults)
    }

    /// Moves the timeline and hands the engine the wake-ups it fired, in deadline order, as the
    /// hub does (each wake-up asks for the next one); returns the engine's outputs.
    @discardableResult
    public mutating func advance(by deltaMs: Int64) throws -> [SessionOutput] {
        try clock.advance(by: deltaMs)
        var outputs: [SessionOutput] = []
        while let deadline = fired.takeFirst() {
            wakeUp = nil
            outputs += apply(engine.fireDueTimers(nowMs: deadline))
            clock.fireDue()
        }
        return outputs
    }
}

/// The replies to `connection`, in order.
public func replies(_ outputs: [SessionOutput], to connection: UInt64) -> [SessionReply] {
    outputs.compactMap { if case .reply(ConnectionID(connection), _, let reply) = $0 { reply } else { nil } }
}

/// The pushes to `connection`, in order.
public func pushes(_ outputs: [SessionOutput], to connection: UInt64) -> [SessionPush] {
    outputs.compactMap { if case .push(ConnectionID(connection), let push) = $0 { push } else { nil } }
}

/// The ends of sessions, by connection, in order.
public func ends(_ outputs: [SessionOutput]) -> [(connection: ConnectionID, end: SessionEnd)] {
    outputs.compactMap { if case .end(let connection, let end) = $0 { (connection, end) } else { nil } }
}

/// The codes of the kicks that end sessions in `outputs`, in order.
public func kickCodes(_ outputs: [SessionOutput]) -> [Int] {
    ends(outputs).compactMap { if case .kicked(let code, _) = $0.end.cause { code } else { nil } }
}

/// The engine's wake-ups in `outputs`.
public func wakes(_ outputs: [SessionOutput]) -> [Int64] {
    outputs.compactMap { if case .wake(let atMs) = $0 { atMs } else { nil } }
}

/// Engine wake-ups the timeline fired (their deadlines), waiting for the harness to hand them
/// to the engine.
final class FiredWakeUps: Sendable {
    private let deadlines = Mutex<[Int64]>([])

    func append(_ deadline: Int64) { deadlines.withLock { $0.append(deadline) } }

    func takeFirst() -> Int64? {
        deadlines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
