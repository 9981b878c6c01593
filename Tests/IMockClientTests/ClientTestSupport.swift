import IMockCore
@testable import IMockClient

/// Request tags as literals: the state machine's request ids are decimal counters.
extension RequestTag: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(value) }
}

/// Drives a ``ClientStateMachine`` like the I/O shell would, on a hand-moved clock.
struct Driver {
    var machine: ClientStateMachine
    var nowMs: Int64 = 1_000_000
    /// Every action so far.
    var actions: [ClientAction] = []

    init(profile: SDKProfile, syncTypes: [SyncType] = [], reconnect: ReconnectPolicy? = nil, lastOnlineUser: String? = nil)
        throws
    {
        let options = try ClientOptions(
            appKey: "acme#chat", device: DeviceDescription(platform: .easemob(.ios), name: "phone", uuid: "dev1"),
            syncTypes: syncTypes, profile: profile, reconnect: reconnect, randomSeed: 7)
        machine = ClientStateMachine(options: options, lastOnlineUser: lastOnlineUser)
    }

    /// Handles `event`; returns its actions.
    @discardableResult
    mutating func on(_ event: ClientEvent) -> [ClientAction] {
        let result = machine.handle(event, nowMs: nowMs)
        actions += result
        return result
    }

    var generation: UInt64 { machine.liveSocket ?? 0 }

    /// The server says `input` on the live socket.
    mutating func said(_ input: ServerInput) { on(.serverSaid(generation: generation, input)) }

    /// The tag of the last request sent.
    var lastSentID: RequestTag? {
        for action in actions.reversed() { if case .sendRequest(_, let request) = action { return request.tag } }
        return nil
    }

    /// login → database opened → socket opened → login.ok.
    mutating func loginOnline(user: String = "alice", expiresAt: Int64? = nil) {
        on(.login(user: user, token: "t1"))
        on(.databaseOpened(epoch: machine.loginEpoch, error: nil))
        on(.socketOpened(generation: generation))
        said(.reply(lastSentID ?? "", .loginAccepted(resource: "ios_dev1", tokenExpiresAt: expiresAt, serverTime: nowMs)))
    }

    /// A network drop, the back-off, a successful reconnect.
    mutating func dropAndReconnect() {
        on(.socketClosed(generation: generation, sessionEndCode: nil, reason: ""))
        nowMs += 2000
        on(.timerFired(.reconnect))
        on(.socketOpened(generation: generation))
        said(.reply(lastSentID ?? "", .loginAccepted(resource: "ios_dev1", tokenExpiresAt: nil, serverTime: nowMs)))
    }

    /// Vendor callbacks since index `from` of ``actions``, as `name(args)`.
    func callbacks(from start: Int = 0) -> [String] { Self.callbacks(in: Array(actions[start...])) }

    static func callbacks(in actions: [ClientAction]) -> [String] {
        actions.flatMap { action -> [String] in
            guard case .emit(let emitted) = action else { return [] }
            return emitted.records.map(\.summary)
        }
    }

    static func canonical(in actions: [ClientAction]) -> [CanonicalCallback] {
        actions.compactMap { if case .emit(let emitted) = $0 { emitted.canonical } else { nil } }
    }

    static func others(in actions: [ClientAction]) -> [ClientAction] {
        actions.filter { if case .emit = $0 { false } else { true } }
    }
}
