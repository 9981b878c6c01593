import IMockCore
import Testing

/// Findings of the session-engine sequence fuzzer (`Tests/Fuzz/engine`, docs/FUZZING.md), each
/// replayed through the engine's public API. The fuzzer's inputs are kept in
/// `Tests/Fuzz/engine/regressions/`.
@Suite struct EngineSequenceRegressionTests {
    static let now: Int64 = 1_700_000_000_000
    static let app = try! AppKey(parsing: "acme#chat")

    /// An app with user alice, a one-hour token for her, and an engine with the app's policies.
    static func fixture() throws -> (directory: Directory, engine: SessionEngine, token: String) {
        var directory = Directory(settings: DirectorySettings(passwordIterations: 1))
        try directory.createApp(app)
        _ = try directory.registerUser(NewUser(username: "alice", password: "pw"), in: app, nowMs: now)
        let token = try directory.issueInheritedUserToken(
            in: app, username: "alice", autoCreateUser: false, ttlSeconds: 3600, nowMs: now
        ).token.token
        return (directory, SessionEngine(decider: AppLoginDecider()), token)
    }

    static func login(_ token: String, user: String = "alice", appKey: String = "acme#chat") -> SessionCommand {
        .login(RequestTag("1"), LoginRequest(appKey: appKey, user: user, token: token, device: DeviceDescription(platform: .easemob(.ios), uuid: "u1")))
    }

    /// Fuzz target `engine`, input `overflow_of_connection_after_its_end.bin`: an output
    /// overflow reported for a connection whose session had already ended (its close under
    /// way) gave it a second end. Now nothing: one end per connection.
    @Test(arguments: ["logout", "refused login", "closed"])
    func outputOverflowAfterTheEndGivesNothing(_ ending: String) throws {
        var (directory, engine, token) = try Self.fixture()
        let connection = ConnectionID(1)
        _ = engine.connectionOpened(connection, nowMs: Self.now)
        switch ending {
        case "logout":
            _ = engine.handle(Self.login(token), on: connection, nowMs: Self.now, directory: &directory)
            let outputs = engine.handle(.logout(RequestTag("2"), unbindDeviceToken: false), on: connection, nowMs: Self.now, directory: &directory)
            #expect(outputs.contains { if case .end(connection, _) = $0 { true } else { false } })
        case "refused login":
            let outputs = engine.handle(Self.login("YWMt.junk"), on: connection, nowMs: Self.now, directory: &directory)
            #expect(outputs.contains { if case .end(connection, _) = $0 { true } else { false } })
        default:
            _ = engine.handle(Self.login(token), on: connection, nowMs: Self.now, directory: &directory)
            _ = engine.connectionClosed(connection, nowMs: Self.now)
        }
        let overflow = engine.outputOverflowed(
            connection, undelivered: [ChatMessage(messageId: "1", from: "bob", to: "alice", text: "hi", timestamp: Self.now)],
            nowMs: Self.now)
        #expect(overflow == [])
        #expect(engine.offlineMessages(of: "alice", in: Self.app) == [])
        _ = engine.connectionClosed(connection, nowMs: Self.now)
        #expect(engine.connectionCount == 0)
    }

    /// An overflow of a connection that has not logged in still ends it (once).
    @Test func outputOverflowBeforeLoginEndsTheConnection() throws {
        var engine = try Self.fixture().engine
        _ = engine.connectionOpened(ConnectionID(1), nowMs: Self.now)
        let first = engine.outputOverflowed(ConnectionID(1), undelivered: [], nowMs: Self.now)
        #expect(first.count == 1)
        if case .end(ConnectionID(1), let end) = first.first { #expect(end.cause == .outputOverflow) } else { Issue.record("\(first)") }
        #expect(engine.outputOverflowed(ConnectionID(1), undelivered: [], nowMs: Self.now) == [])
    }

    /// Fuzz target `engine`, input `expiry_cancels_the_timer_that_fired.bin`: the expiry timer's
    /// firing answered with a cancel of that very timer, which the shell had already taken off
    /// its list. Now only the timers still pending are cancelled.
    @Test func anExpiryDoesNotCancelTheTimerThatFired() throws {
        var (directory, engine, token) = try Self.fixture()
        let connection = ConnectionID(1)
        _ = engine.connectionOpened(connection, nowMs: Self.now)
        let login = engine.handle(Self.login(token), on: connection, nowMs: Self.now, directory: &directory)
        let timers = login.compactMap { output -> (TimerToken, Int64)? in
            if case .schedule(let timer, let atMs) = output { return (timer, atMs) }
            return nil
        }
        #expect(timers.map(\.0.kind) == [.tokenWillExpire, .tokenExpiry])
        guard let (expiry, atMs) = timers.last else { return }
        // The expiry fires first (a clock jump straight past both deadlines fires them in order,
        // but a renewal race or an "expire now" can leave the warning pending).
        let outputs = engine.timerFired(expiry, nowMs: atMs, directory: &directory)
        let cancels = outputs.compactMap { output -> TimerToken? in
            if case .cancel(let timer) = output { return timer }
            return nil
        }
        #expect(cancels == [timers[0].0])
        #expect(outputs.contains { if case .end(connection, let end) = $0 { end.cause == .tokenExpired } else { false } })
        // After the warning fired, the expiry cancels nothing.
        _ = engine.connectionClosed(connection, nowMs: atMs)
        let second = ConnectionID(2)
        _ = engine.connectionOpened(second, nowMs: Self.now)
        let relogin = engine.handle(Self.login(token), on: second, nowMs: Self.now, directory: &directory)
        let again = relogin.compactMap { output -> TimerToken? in
            if case .schedule(let timer, _) = output { return timer }
            return nil
        }
        #expect(again.count == 2)
        _ = engine.timerFired(again[0], nowMs: atMs - 1, directory: &directory)
        let expired = engine.timerFired(again[1], nowMs: atMs, directory: &directory)
        #expect(!expired.contains { if case .cancel = $0 { true } else { false } })
    }
}
