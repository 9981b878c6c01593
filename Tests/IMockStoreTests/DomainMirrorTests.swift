import IMockCommon
import IMockCore
import Testing

@testable import IMockStore

/// The store mirrors the domain: a random walk of REST, session and control commands on a
/// recording `Domain`, committed turn by turn as the server does (`takeDurableChanges` →
/// `StoreChange.changes(for:in:)` → `apply`), loads back as exactly the domain's state, and a
/// domain rebuilt from the store exports the same.
@Suite struct DomainMirrorTests {
    @Test("every turn of a random walk loads back as the domain's state", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomWalk(seed: UInt64) throws {
        let scratch = try ScratchDirectory()
        let store = try PersistentStore.open(directory: scratch.path, options: StoreOptions(checkpointing: .inline))
        var walk = try DomainWalk(seed: seed)
        try store.apply(StoreChange.firstStart(of: walk.domain, clock: StoredClock(offsetMs: 0, frozenAtMs: nil)))
        var seen: [String: Int] = [:]
        for turn in 0..<150 {
            for _ in 0..<walk.random.int(in: 1...6) { try walk.step() }
            let changes = StoreChange.changes(for: walk.domain.takeDurableChanges(), in: walk.domain)
            for change in changes {
                seen[String(change.label.prefix { $0 != " " }), default: 0] += 1
            }
            try store.apply(changes)
            if turn % 25 == 24 { try expectMirror(store.load(), walk.domain, "seed \(seed), turn \(turn)") }
        }
        let state = try store.load()
        try expectMirror(state, walk.domain, "seed \(seed), end")
        // The walk reaches the changes that matter: queued, put back, acked, dropped, revoked …
        for kind in [
            "appReplaced", "userUpserted", "userRemoved", "tokenCounterAdvanced", "tokenRevoked", "offlineMessagesQueued",
            "offlineMessageRemoved", "offlineQueueDropped", "activeUserAdded", "checkpointSaved", "nextMessageSerial",
        ] {
            #expect(seen[kind, default: 0] > 0, "seed \(seed): no \(kind) in \(seen)")
        }

        // A domain rebuilt from the store is the same domain, minus live sessions.
        var engine = SessionEngine()
        state.restore(into: &engine)
        let rebuilt = Domain(
            directory: try state.document.makeDirectory(settings: DirectorySettings(passwordIterations: 1), nowMs: 0),
            engine: engine, startSeed: state.startState, checkpoints: state.checkpointsByApp)
        #expect(SeedDocument.export(rebuilt.directory) == SeedDocument.export(walk.domain.directory))
        #expect(rebuilt.startSeed == walk.domain.startSeed)
        #expect(rebuilt.checkpoints == walk.domain.checkpoints)
        #expect(rebuilt.engine.nextMessageID == walk.domain.engine.nextMessageID)
        for key in walk.domain.directory.appKeys {
            #expect(rebuilt.engine.activeUserCount(in: key) == walk.domain.engine.activeUserCount(in: key))
            for user in DomainWalk.names {
                // Every undelivered message is stored, and waits after a restart.
                #expect(rebuilt.engine.offlineMessages(of: user, in: key) == walk.domain.engine.undeliveredMessages(of: user, in: key))
            }
        }
        try store.checkIntegrity()
    }

    @Test("recording is off by default: a domain that nobody stores keeps no changes")
    func recordingOff() throws {
        var walk = try DomainWalk(seed: 9, recording: false)
        for _ in 0..<200 { try walk.step() }
        #expect(walk.domain.takeDurableChanges().isEmpty)
        #expect(!walk.domain.isRecordingChanges)
    }

    @Test("a user deleted and registered again in one turn, and an app added and removed, are written once each")
    func coalescing() throws {
        let scratch = try ScratchDirectory()
        let store = try PersistentStore.open(directory: scratch.path)
        var walk = try DomainWalk(seed: 1)
        try store.apply(StoreChange.firstStart(of: walk.domain, clock: StoredClock(offsetMs: 0, frozenAtMs: nil)))
        let app = DomainWalk.apps[0]
        try walk.domain.directory.registerUser(NewUser(username: "eve", password: "pw"), in: app, nowMs: 1)
        try walk.domain.directory.deleteUser("eve", in: app)
        try walk.domain.directory.registerUser(NewUser(username: "eve", password: "pw2"), in: app, nowMs: 2)
        let extra = try AppKey(parsing: "acme#extra")
        _ = try walk.domain.seed(SeedDocument(apps: [SeedApp(appKey: extra)]), nowMs: 3)
        _ = try walk.domain.resetAll(nowMs: 4)
        let changes = StoreChange.changes(for: walk.domain.takeDurableChanges(), in: walk.domain)
        // The reset replaces both start apps whole (their active users start again); the extra
        // app is removed last.
        #expect(
            changes.map(\.label) == [
                "appReplaced acme#chat", "appReplaced acme#open", "activeUsersReset acme#chat", "activeUsersReset acme#open",
                "appRemoved acme#extra",
            ])
        try store.apply(changes)
        try expectMirror(store.load(), walk.domain, "after the reset")
    }

    private func expectMirror(_ state: StoredState, _ domain: Domain, _ when: String) throws {
        #expect(state.document == SeedDocument.export(domain.directory), "\(when)")
        #expect(state.checkpointsByApp == domain.checkpoints, "\(when)")
        #expect(state.startState == domain.startSeed, "\(when)")
        #expect(state.nextMessageSerial == domain.engine.nextMessageID, "\(when)")
        var queues: [StoredOfflineQueue] = []
        for key in domain.directory.appKeys {
            #expect((state.activeUsers[key]?.count ?? 0) == domain.engine.activeUserCount(in: key), "\(when): \(key)")
            for user in DomainWalk.names.sorted() {
                let messages = domain.engine.undeliveredMessages(of: user, in: key)
                if !messages.isEmpty { queues.append(StoredOfflineQueue(app: key, recipient: user, messages: messages)) }
            }
        }
        #expect(state.offlineQueues == queues, "\(when)")
    }
}

/// A recording domain with two apps, driven by seeded random commands the way the server's
/// REST routes, session connections and control API drive it.
struct DomainWalk {
    static let apps = [try! AppKey(parsing: "acme#chat"), try! AppKey(parsing: "acme#open")]
    static let names = ["alice", "bob", "carol", "dave", "erin", "frank"]

    var domain: Domain
    var random: WalkRandom
    var now: Int64 = 1_767_225_600_000
    /// Logged-in connections by (app, user).
    var connections: [String: ConnectionID] = [:]
    var nextConnection: UInt64 = 1
    /// Messages pushed live to each connection (what an overflow puts back).
    var delivered: [ConnectionID: [ChatMessage]] = [:]
    /// How often each kind of step ran.
    var counts: [String: Int] = [:]

    init(seed: UInt64, recording: Bool = true) throws {
        random = WalkRandom(seed: seed)
        var directory = Directory(settings: DirectorySettings(passwordIterations: 1, random: RandomSource(seed: seed)))
        try directory.createApp(Self.apps[0])
        try directory.createApp(Self.apps[1], settings: AppSettings(registrationMode: .open))
        for name in Self.names.prefix(3) {
            try directory.registerUser(NewUser(username: name, password: "pw"), in: Self.apps[0], nowMs: now)
        }
        domain = Domain(directory: directory)
        if recording { domain.startRecordingChanges() }
    }

    mutating func step() throws {
        now += Int64(random.int(in: 0...1000))
        let app = Self.apps[random.int(in: 0...1)]
        let user = Self.names[random.int(in: 0..<Self.names.count)]
        let kind = random.int(in: 0...36)
        counts[String(kind), default: 0] += 1
        switch kind {
        case 0: _ = try? domain.directory.registerUser(NewUser(username: user, password: "pw"), in: app, nowMs: now)
        case 1: _ = try? domain.directory.registerPasswordlessUsers([(user, nil)], in: app, nowMs: now)
        case 2:
            let batch = Self.names.shuffled(using: &random).prefix(3).map { NewUser(username: $0, password: "pw") }
            _ = try? domain.directory.registerBatch(batch, in: app, nowMs: now)
        case 3:
            if (try? domain.directory.deleteUser(user, in: app)) != nil {
                perform(domain.apply([.userDeleted(app, username: user)], nowMs: now))
            }
        case 4: _ = try? domain.directory.changePassword(user, to: "pw\(now)", in: app, nowMs: now)
        case 5: _ = try? domain.directory.setActivated(random.int(in: 0...1) == 1, user: user, in: app, nowMs: now)
        case 6:
            _ = try? domain.directory.issueInheritedUserToken(
                in: app, username: user, autoCreateUser: true, ttlSeconds: nil, nowMs: now)
        case 7:
            let next = domain.directory.apps[app]?.nextTokenSerial ?? 1
            domain.directory.revokeToken(id: UInt64(random.int(in: 1...Int(next))), in: app)
        case 8: _ = try? domain.revokeAllTokens(of: user, in: app)
        case 9...14: try login(user, in: app)
        case 15, 16: close(user, in: app)
        case 17...26: send()
        case 27...30: ack()
        case 31: overflow()
        case 34, 35: transportDelivery()
        case 32:
            var settings = domain.directory.apps[app]?.settings ?? AppSettings()
            settings.defaultTokenTTLSeconds = Int64(random.int(in: 0...9999))
            settings.serviceEnabled = random.int(in: 0...3) != 0
            if let outputs = try? domain.updateSettings(settings, of: app, nowMs: now).outputs { perform(outputs) }
        case 33:
            let name = "cp\(random.int(in: 1...2))"
            if random.int(in: 0...1) == 0 {
                _ = try? domain.saveCheckpoint(name, of: app)
            } else if let restored = try? domain.restoreCheckpoint(name, of: app, nowMs: now) {
                perform(restored.outputs)
            }
        default:
            switch random.int(in: 0...7) {
            case 0: if let reset = try? domain.reset(app, nowMs: now) { perform(reset.outputs) }
            case 1: if let reset = try? domain.resetAll(nowMs: now) { perform(reset.outputs) }
            case 2:
                let extra = SeedApp(appKey: try AppKey(parsing: "acme#extra"), users: [SeedUser(username: user, password: .plain("pw"))])
                if let seeded = try? domain.seed(SeedDocument(apps: [extra]), nowMs: now) { perform(seeded.outputs) }
            case 3: domain.engine.resetActiveUsers(in: app)
            default: break
            }
        }
    }

    private mutating func login(_ user: String, in app: AppKey) throws {
        guard connections["\(app)/\(user)"] == nil,
            let issued = try? domain.directory.issueInheritedUserToken(
                in: app, username: user, autoCreateUser: false, ttlSeconds: nil, nowMs: now)
        else { return }
        let connection = ConnectionID(nextConnection)
        nextConnection += 1
        perform(domain.connectionOpened(connection, nowMs: now))
        let request = LoginRequest(
            appKey: app.description, user: user, token: issued.token.token,
            device: DeviceDescription(platform: .easemob(.ios), uuid: "device-\(connection.rawValue)"))
        perform(domain.handle(.login(RequestTag("l"), request), on: connection, remembered: nil, nowMs: now))
    }

    private mutating func close(_ user: String, in app: AppKey) {
        guard let connection = connections["\(app)/\(user)"] else { return }
        perform(domain.connectionClosed(connection, nowMs: now))
        forget(connection)
    }

    /// From a random logged-in user.
    private mutating func send() {
        guard let connection = connections.values.sorted().randomElement(using: &random) else { return }
        let to = Self.names[random.int(in: 0..<Self.names.count)]
        perform(
            domain.handle(
                .send(RequestTag("s"), to: to, text: "m\(now)"), on: connection, remembered: nil,
                nowMs: now))
    }

    /// By a random logged-in user with queued messages.
    private mutating func ack() {
        let waiting = connections.sorted { $0.value < $1.value }.compactMap { entry -> (ConnectionID, [ChatMessage])? in
            let parts = entry.key.split(separator: "/")
            guard let app = try? AppKey(parsing: String(parts[0])) else { return nil }
            let queue = domain.engine.offlineMessages(of: String(parts[1]), in: app)
            return queue.isEmpty ? nil : (entry.value, queue)
        }
        guard let (connection, queue) = waiting.randomElement(using: &random) else { return }
        let message = queue[random.int(in: 0..<queue.count)]
        perform(
            domain.handle(.ack(RequestTag("a"), messageId: message.messageId), on: connection,
                          remembered: nil, nowMs: now))
    }

    /// A connection that was sent live messages stops reading.
    private mutating func overflow() {
        let candidates = delivered.filter { !$0.value.isEmpty }.keys.sorted()
        guard let connection = candidates.randomElement(using: &random) else { return }
        perform(domain.outputOverflowed(connection, nowMs: now))
    }

    /// The TCP of a connection that was sent live messages acknowledged some of them.
    private mutating func transportDelivery() {
        let candidates = delivered.filter { !$0.value.isEmpty }.keys.sorted()
        guard let connection = candidates.randomElement(using: &random), let messages = delivered[connection] else { return }
        let reached = random.int(in: 1...messages.count)
        domain.delivered(connection, messageIDs: messages.prefix(reached).map(\.messageId))
        delivered[connection] = Array(messages.dropFirst(reached))
    }

    /// Keeps track of logins, ends and live messages, as the hub would.
    private mutating func perform(_ outputs: [SessionOutput]) {
        for output in outputs {
            switch output {
            case .reply(let connection, _, .loginAccepted):
                if let session = domain.engine.sessions(in: Self.apps[0]).first(where: { $0.connection == connection })
                    ?? domain.engine.sessions(in: Self.apps[1]).first(where: { $0.connection == connection })
                {
                    connections["\(session.app)/\(session.user)"] = connection
                }
            case .push(let connection, .message(let message)): delivered[connection, default: []].append(message)
            case .end(let connection, _):
                perform(domain.connectionClosed(connection, nowMs: now))
                forget(connection)
            default: break
            }
        }
    }

    private mutating func forget(_ connection: ConnectionID) {
        connections = connections.filter { $0.value != connection }
        delivered[connection] = nil
    }
}

/// SplitMix64 with the ranges the walk needs.
struct WalkRandom: RandomNumberGenerator {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    mutating func int(in range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
}
