import IMockCommon
@testable import IMockCore

/// A directory, an engine and a virtual clock whose timers are driven like the shell would.
struct SessionHarness {
    var directory = Directory(settings: DirectorySettings(passwordIterations: 1))
    var engine: SessionEngine
    var clock = VirtualClock(startMs: 1_000_000)
    var schedule = TimerSchedule<TimerToken>()
    var timerIDs: [TimerToken: TimerID] = [:]
    /// Every effect produced, in order.
    var log: [SessionEffect] = []
    let app: AppKey

    static let appKeyText = "acme#chat"

    init(settings: AppSettings = AppSettings(), decider: any LoginDecider = AcceptAllLoginDecider(),
         configuration: SessionEngineConfiguration = SessionEngineConfiguration()) throws {
        engine = SessionEngine(configuration: configuration, decider: decider)
        app = try AppKey(parsing: Self.appKeyText)
        try directory.createApp(app, settings: settings)
        for name in ["alice", "bob", "carol"] {
            try directory.registerUser(NewUser(username: name, password: "secret"), in: app, nowMs: clock.nowMs)
        }
    }

    var nowMs: Int64 { clock.nowMs }

    /// A user token; `ttl` in seconds, 0 = never expires.
    mutating func token(_ user: String, ttl: Int64 = 3600) throws -> String {
        try directory.issueInheritedUserToken(in: app, username: user, autoCreateUser: false, ttlSeconds: ttl, nowMs: nowMs)
            .token.token
    }

    @discardableResult
    mutating func apply(_ effects: [SessionEffect]) -> [SessionEffect] {
        for effect in effects {
            switch effect {
            case .schedule(let timer, let atMs): timerIDs[timer] = schedule.schedule(at: atMs, timer)
            case .cancel(let timer):
                if let id = timerIDs.removeValue(forKey: timer) { schedule.cancel(id) }
            default: break
            }
        }
        log += effects
        return effects
    }

    @discardableResult
    mutating func open(_ connection: UInt64) -> [SessionEffect] {
        apply(engine.connectionOpened(ConnectionID(connection), nowMs: nowMs))
    }

    @discardableResult
    mutating func frame(_ connection: UInt64, _ text: String) -> [SessionEffect] {
        apply(engine.frameReceived(ConnectionID(connection), text: text, nowMs: nowMs, directory: &directory))
    }

    @discardableResult
    mutating func close(_ connection: UInt64) -> [SessionEffect] {
        apply(engine.connectionClosed(ConnectionID(connection), nowMs: nowMs))
    }

    /// Opens `connection` and logs `user` in with a fresh token unless one is given.
    @discardableResult
    mutating func login(
        _ connection: UInt64, _ user: String, token: String? = nil, os: String = "ios", uuid: String? = nil,
        name: String = "", extensionInfo: String = "", resource: String? = nil, autoLogin: Bool = false,
        sync: [String] = [], id: String = "L"
    ) throws -> [SessionEffect] {
        let token = try token ?? self.token(user)
        open(connection)
        var device: JSONValue = [
            "os": .string(os), "name": .string(name), "uuid": .string(uuid ?? "dev-\(connection)"),
            "extension": .string(extensionInfo),
        ]
        if let resource, case .object(var members) = device {
            members.append((key: "resource", value: .string(resource)))
            device = .object(members)
        }
        let frame: JSONValue = [
            "op": "login", "id": .string(id), "appKey": .string(Self.appKeyText), "user": .string(user),
            "token": .string(token), "device": device, "autoLogin": .bool(autoLogin),
            "sync": .array(sync.map { .string($0) }),
        ]
        return self.frame(connection, frame.encodedString)
    }

    /// Moves the virtual clock and fires due timers in order, like the shell.
    @discardableResult
    mutating func advance(by deltaMs: Int64) throws -> [SessionEffect] {
        try clock.advance(by: deltaMs)
        var effects: [SessionEffect] = []
        for (_, timer) in schedule.popDue(nowMs: nowMs) {
            timerIDs[timer] = nil
            effects += apply(engine.timerFired(timer, nowMs: nowMs, directory: &directory))
        }
        return effects
    }
}

/// The frames sent to `connection`, in order.
func frames(_ effects: [SessionEffect], to connection: UInt64) -> [ServerFrame] {
    effects.compactMap {
        if case .send(let target, let frame) = $0, target == ConnectionID(connection) { return frame }
        return nil
    }
}

/// The effects that reach sockets (send and close), without journal and timers.
func wire(_ effects: [SessionEffect]) -> [SessionEffect] {
    effects.filter {
        switch $0 {
        case .send, .close: true
        default: false
        }
    }
}

/// The close codes per connection.
func closes(_ effects: [SessionEffect]) -> [(ConnectionID, UInt16)] {
    effects.compactMap {
        if case .close(let connection, let code, _) = $0 { return (connection, code) }
        return nil
    }
}

extension ServerFrame {
    /// The `code` of a `login.error`, `kicked` or `error` frame.
    var code: Int? {
        switch self {
        case .loginError(_, let code, _), .kicked(let code, _, _), .error(_, let code, _, _): code
        default: nil
        }
    }
}
