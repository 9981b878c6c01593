import Testing

@testable import IMockCore

/// The engine's one queue of token timers (warning and expiry of every session) and the one
/// wake-up it asks its shell for (``SessionOutput/wake(atMs:)``).
@Suite("Session engine: token timer queue")
struct TokenTimerQueueTests {
    static let now: Int64 = 1_700_000_000_000
    static let app = try! AppKey(parsing: "acme#chat")

    /// A directory, an engine and the shell's one wake-up, driven the way the hub drives them.
    struct World {
        var directory = Directory(settings: DirectorySettings(passwordIterations: 1))
        var engine = SessionEngine(decider: AppLoginDecider())
        /// The wake-up the shell holds (the latest asked for; one fired is gone).
        var wakeAtMs: Int64?
        /// Every wake-up the engine asked for, in order.
        var wakes: [Int64] = []

        init(users: Int) throws {
            try directory.createApp(app)
            for index in 0..<users {
                _ = try directory.registerUser(NewUser(username: "u\(index)", password: "pw"), in: app, nowMs: now)
            }
        }

        /// Notes the wake-ups among `outputs` and returns them.
        @discardableResult
        mutating func take(_ outputs: [SessionOutput]) -> [SessionOutput] {
            for case .wake(let atMs) in outputs {
                wakes.append(atMs)
                wakeAtMs = atMs
            }
            return outputs
        }

        /// Logs user `u<index>` in on connection `index + 1` with a token of `ttl` seconds.
        @discardableResult
        mutating func login(_ index: Int, ttl: Int64, nowMs: Int64 = now) throws -> [SessionOutput] {
            let token = try directory.issueInheritedUserToken(
                in: app, username: "u\(index)", autoCreateUser: false, ttlSeconds: ttl, nowMs: nowMs
            ).token.token
            let connection = ConnectionID(UInt64(index + 1))
            _ = engine.connectionOpened(connection, nowMs: nowMs)
            let request = LoginRequest(
                appKey: "acme#chat", user: "u\(index)", token: token,
                device: DeviceDescription(platform: .easemob(.ios), uuid: "d\(index)"))
            return take(engine.handle(.login(RequestTag("L"), request), on: connection, nowMs: nowMs, directory: &directory))
        }

        /// Moves a virtual clock to `targetMs` as the hub's timeline does: the wake-up fires at
        /// its deadline with the clock standing there, and asks for the next one.
        mutating func jump(to targetMs: Int64) -> [SessionOutput] {
            var outputs: [SessionOutput] = []
            while let deadline = wakeAtMs, deadline <= targetMs {
                wakeAtMs = nil
                outputs += take(engine.fireDueTimers(nowMs: deadline))
            }
            return outputs
        }
    }

    /// The token events among `outputs`: (journal time, user, expired or warned).
    static func tokenEvents(_ outputs: [SessionOutput]) -> [(atMs: Int64, user: String, expired: Bool)] {
        outputs.compactMap { output in
            guard case .journal(let entry) = output, let user = entry.user else { return nil }
            switch entry.event {
            case .tokenWillExpire: return (entry.atMs, user, false)
            case .tokenExpired: return (entry.atMs, user, true)
            default: return nil
            }
        }
    }

    @Test func sessionsTimersFireInDeadlineOrderEachAtItsDeadline() throws {
        var world = try World(users: 5)
        // Warnings at 80 % of each token's life.
        for (index, ttl) in [50, 10, 30, 20, 45].enumerated() { try world.login(index, ttl: Int64(ttl)) }
        let events = Self.tokenEvents(world.jump(to: Self.now + 60_000))
        let expected: [(Int64, String, Bool)] = [
            (8, "u1", false), (10, "u1", true), (16, "u3", false), (20, "u3", true), (24, "u2", false),
            (30, "u2", true), (36, "u4", false), (40, "u0", false), (45, "u4", true), (50, "u0", true),
        ]
        #expect(events.map(\.atMs) == expected.map { Self.now + $0.0 * 1000 })
        #expect(events.map(\.user) == expected.map(\.1))
        #expect(events.map(\.expired) == expected.map(\.2))
        #expect(world.engine.pendingTokenTimerCount == 0)
        #expect(world.wakeAtMs == nil)
    }

    @Test func aWakeUpIsAskedForOnlyWhenTheEarliestDeadlineMovesEarlier() throws {
        var world = try World(users: 3)
        try world.login(0, ttl: 100)
        try world.login(1, ttl: 200)
        try world.login(2, ttl: 10)
        #expect(world.wakes == [Self.now + 80_000, Self.now + 8_000])
        #expect(world.engine.nextTokenTimerDeadlineMs == Self.now + 8_000)
        #expect(world.engine.pendingTokenTimerCount == 3)
    }

    @Test func equalDeadlinesFireInLoginOrder() throws {
        var world = try World(users: 4)
        for index in [2, 0, 3, 1] { try world.login(index, ttl: 10) }
        let expiries = Self.tokenEvents(world.jump(to: Self.now + 10_000)).filter(\.expired)
        #expect(expiries.map(\.user) == ["u2", "u0", "u3", "u1"])
    }

    @Test func endedSessionsTakeTheirTimersOutOfTheQueue() throws {
        var world = try World(users: 300)
        for index in 0..<300 { try world.login(index, ttl: 3600) }
        #expect(world.engine.pendingTokenTimerCount == 300)
        for index in 0..<270 {
            #expect(world.engine.connectionClosed(ConnectionID(UInt64(index + 1)), nowMs: Self.now).isEmpty)
        }
        #expect(world.engine.pendingTokenTimerCount == 30)
        // The queue keeps at most about twice its live entries, not the ended sessions' week.
        #expect(world.engine.tokenTimers.storedCount <= 2 * 30 + 64)
        let events = Self.tokenEvents(world.jump(to: Self.now + 3_600_000))
        #expect(Set(events.map(\.user)) == Set((270..<300).map { "u\($0)" }))
        #expect(events.count == 60)
    }

    @Test func aClockJumpOverManyDeadlinesFiresEveryOneInOrder() throws {
        let count = 400
        var world = try World(users: count)
        // Distinct lives, logged in out of order: 7 s, 14 s … so no two deadlines are equal.
        for index in 0..<count { try world.login(index, ttl: Int64((index * 37 % count + 1) * 7)) }
        let events = Self.tokenEvents(world.jump(to: Self.now + Int64(count) * 7_000 + 1))
        #expect(events.count == 2 * count)
        #expect(events.map(\.atMs) == events.map(\.atMs).sorted())
        #expect(events.filter(\.expired).count == count)
        #expect(world.engine.sessions(in: Self.app).isEmpty)
        #expect(world.engine.pendingTokenTimerCount == 0)
        // A wake-up per distinct deadline reached, and none asked for after the last.
        #expect(Set(world.wakes).count == Set(events.map(\.atMs)).count)
        #expect(world.wakeAtMs == nil)
    }

    @Test func aRenewalMovesTheSessionsTimers() throws {
        var world = try World(users: 1)
        try world.login(0, ttl: 100)
        let renewedAt = Self.now + 50_000
        let token = try world.directory.issueInheritedUserToken(
            in: Self.app, username: "u0", autoCreateUser: false, ttlSeconds: 100, nowMs: renewedAt
        ).token.token
        world.take(world.engine.handle(
            .renewToken(RequestTag("r"), token: token), on: ConnectionID(1), nowMs: renewedAt,
            directory: &world.directory))
        #expect(world.engine.pendingTokenTimerCount == 1)
        let events = Self.tokenEvents(world.jump(to: renewedAt + 100_000))
        #expect(events.map(\.atMs) == [renewedAt + 80_000, renewedAt + 100_000])
    }

    @Test func theQueueOrdersByDeadlineThenOrderAndRebuildsWhenStaleEntriesOutnumberLiveOnes() {
        var queue = TokenTimerQueue()
        for (atMs, order) in [(30, 4), (10, 7), (10, 2), (20, 3), (5, 9)] {
            queue.push(TokenTimerQueue.Entry(atMs: Int64(atMs), order: UInt64(order), session: SessionID(rawValue: UInt64(order))))
        }
        var orders: [UInt64] = []
        while let entry = queue.popFirst(dueBy: 25) { orders.append(entry.order) }
        #expect(orders == [9, 2, 7, 3])
        #expect(queue.nextDeadline == 30)
        #expect(queue.popFirst(dueBy: 100)?.isExpiry == false)

        for index in 0..<200 {
            queue.push(TokenTimerQueue.Entry(atMs: Int64(index), order: UInt64(index), session: SessionID(rawValue: UInt64(index))))
        }
        var ended: Set<UInt64> = []
        for index in 0..<150 {
            ended.insert(UInt64(index))
            queue.noteStale { !ended.contains($0.session.rawValue) }
        }
        #expect(queue.count == 50)
        #expect(queue.storedCount <= 2 * 50 + 64)
        var live: [UInt64] = []
        while let entry = queue.popFirst(dueBy: .max) {
            if ended.contains(entry.session.rawValue) { queue.poppedStale() } else { live.append(entry.session.rawValue) }
        }
        #expect(live == Array(150..<200))
        #expect(queue.count == 0)
    }
}
