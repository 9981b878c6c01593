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
        let overflow = engine.outputOverflowed(connection, nowMs: Self.now)
        #expect(overflow == [])
        #expect(engine.offlineMessages(of: "alice", in: Self.app) == [])
        _ = engine.connectionClosed(connection, nowMs: Self.now)
        #expect(engine.connectionCount == 0)
    }

    /// An overflow of a connection that has not logged in still ends it (once).
    @Test func outputOverflowBeforeLoginEndsTheConnection() throws {
        var engine = try Self.fixture().engine
        _ = engine.connectionOpened(ConnectionID(1), nowMs: Self.now)
        let first = engine.outputOverflowed(ConnectionID(1), nowMs: Self.now)
        #expect(first.count == 1)
        if case .end(ConnectionID(1), let end) = first.first { #expect(end.cause == .outputOverflow) } else { Issue.record("\(first)") }
        #expect(engine.outputOverflowed(ConnectionID(1), nowMs: Self.now) == [])
    }

    /// Fuzz target `engine`, input `expiry_cancels_the_timer_that_fired.bin`: the expiry timer's
    /// firing once answered with a cancel of that very timer. The timers are the engine's own
    /// now: an expiry leaves no timer of the session behind, whether its warning fired or not.
    @Test func anExpiryLeavesNoTimerOfTheSession() throws {
        var (directory, engine, token) = try Self.fixture()
        let connection = ConnectionID(1)
        _ = engine.connectionOpened(connection, nowMs: Self.now)
        let login = engine.handle(Self.login(token), on: connection, nowMs: Self.now, directory: &directory)
        let wakes = login.compactMap { output -> Int64? in
            if case .wake(let atMs) = output { return atMs }
            return nil
        }
        #expect(wakes.count == 1)
        #expect(engine.pendingTokenTimerCount == 1)
        // "Expire now" ends the session while its warning is still pending.
        let expired = engine.expireTokens(app: Self.app, user: "alice", nowMs: Self.now)
        #expect(expired.contains { if case .end(connection, let end) = $0 { end.cause == .tokenExpired } else { false } })
        #expect(engine.pendingTokenTimerCount == 0)
        // A wake-up then finds nothing due and asks for nothing.
        #expect(engine.fireDueTimers(nowMs: wakes[0]).isEmpty)
    }
}
