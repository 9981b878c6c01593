import IMockCommon
import IMockClient
import IMockCore
import IMockServer
import Testing

/// Issue 6 "done when", against a real in-process server over loopback sockets.
@Suite("Client against a real server: profile sequences")
struct ProfileIntegrationTests {
    static let dropThenKick: [(SDKProfile, [String])] = [
        (
            .easemob,
            [
                #"onDatabaseOpened(error: null, username: "alice")"#, #"loginCompletion(username: "alice", error: null)"#,
                #"connectionStateDidChange(state: "connected")"#, #"connectionStateDidChange(state: "disconnected")"#,
                #"connectionStateDidChange(state: "connected")"#, #"connectionStateDidChange(state: "disconnected")"#,
                #"userAccountDidLoginFromOtherDevice(info: {"deviceName":"Pixel","extensionInfo":"hello"})"#,
            ]
        ),
        (.openim, ["onConnecting", "loginSuccess", "onConnectSuccess", "onConnecting", "onConnectSuccess", "onKickedOffline"]),
        (
            .zim,
            [
                #"connectionStateChanged(state: "Connecting", event: "ActiveLogin")"#, "loginCallback(errorCode: 0)",
                #"connectionStateChanged(state: "Connected", event: "Success")"#,
                #"connectionStateChanged(state: "Reconnecting", event: "LoginInterrupted")"#,
                #"connectionStateChanged(state: "Connected", event: "Success")"#,
                #"connectionStateChanged(state: "Disconnected", event: "KickedOut")"#,
            ]
        ),
    ]

    @Test("C1 C2 C6 E12 O2 O7 Z1 Z2 Z3: login → server drops → reconnect by itself → kick 206", arguments: ServerKind.allCases, dropThenKick)
    func loginDropReconnectKick(kind: ServerKind, sequence: (profile: SDKProfile, expected: [String])) async throws {
        let (profile, expected) = sequence
        let server = try await ClientTestServer.start(kind)
        let token = try server.userToken("alice")
        let client = try IMClient(options: try testOptions(profile: profile), host: "127.0.0.1", port: server.port)

        try await client.login(userId: "alice", token: token)
        #expect(client.isLoggedIn)
        #expect(client.isConnected)
        #expect(client.currentUsername == "alice")

        let dropped = try server.control(
            "POST", "/_imock/faults", json: #"{"kind":"drop","app":"acme#chat","user":"alice"}"#)
        #expect(dropped.status == 200)
        let reconnected = await client.log.wait { count($0, where: isConnected) == 2 }
        #expect(reconnected, "no reconnect: \(client.log.summaries)")
        #expect(client.isConnected)

        let kicked = try server.control(
            "POST", "/_imock/apps/acme/chat/kick",
            json: #"{"user":"alice","code":206,"byDeviceName":"Pixel","byExtension":"hello"}"#)
        #expect(kicked.status == 200)
        let ended = await client.log.wait { count($0, where: isSessionEnd) == 1 }
        #expect(ended, "no kick: \(client.log.summaries)")

        #expect(client.log.summaries == expected)
        #expect(client.loginStatus == .logout)
        #expect(!client.isConnected)
        #expect(client.currentUsername == nil)
        #expect(client.log.records.allSatisfy { $0.device == "dev1" && $0.profile == profile })
        await client.shutdown()
        await server.stop()
    }

    static let tokenLife: [(SDKProfile, [String])] = [
        (
            .easemob,
            [
                #"onDatabaseOpened(error: null, username: "alice")"#, #"loginCompletion(username: "alice", error: null)"#,
                #"connectionStateDidChange(state: "connected")"#, "tokenWillExpire(errorCode: 109)",
                "renewTokenCompletion(error: null)", "tokenWillExpire(errorCode: 109)",
                #"connectionStateDidChange(state: "disconnected")"#, "tokenDidExpire(errorCode: 108)",
            ]
        ),
        (.openim, ["onConnecting", "loginSuccess", "onConnectSuccess", "renewTokenSuccess", "onUserTokenExpired"]),
        (
            .zim,
            [
                #"connectionStateChanged(state: "Connecting", event: "ActiveLogin")"#, "loginCallback(errorCode: 0)",
                #"connectionStateChanged(state: "Connected", event: "Success")"#, "onTokenWillExpire(second: 20)",
                "renewTokenCallback(errorCode: 0)", "onTokenWillExpire(second: 20)",
                #"connectionStateChanged(state: "Disconnected", event: "TokenExpired")"#,
            ]
        ),
    ]

    /// The renewed token gets its own warning at 80 % of its life before it expires, so the
    /// server's sequence has a second warning that the pure-core test (which expires at once) has not.
    @Test("E5 E6 C8 O6 Z4: login → token warning → renew → expiry on the server's virtual clock", arguments: ServerKind.allCases, tokenLife)
    func tokenWarningRenewExpiry(kind: ServerKind, sequence: (profile: SDKProfile, expected: [String])) async throws {
        let (profile, expected) = sequence
        let server = try await ClientTestServer.start(kind, clock: .virtual)
        let start = try server.nowMs()
        let clock = SteppedClock(startMs: start)
        let first = try server.userToken("alice", ttl: 100)
        let client = try IMClient(
            options: try testOptions(profile: profile), host: "127.0.0.1", port: server.port, clock: clock)
        try await client.login(userId: "alice", token: first)
        #expect(client.tokenExpiresAt == start + 100_000)

        clock.set(start + 80_000)
        #expect(try server.advance(ms: 80_000) == 200)
        #expect(await client.log.wait { count($0, where: isTokenWarning) == 1 }, "\(client.log.summaries)")

        let second = try server.userToken("alice", ttl: 100, register: false)
        try await client.renewToken(second)
        #expect(client.tokenExpiresAt == start + 180_000)

        clock.set(start + 160_000)
        #expect(try server.advance(ms: 80_000) == 200)
        #expect(await client.log.wait { count($0, where: isTokenWarning) == 2 }, "\(client.log.summaries)")
        #expect(client.isConnected)

        clock.set(start + 180_000)
        #expect(try server.advance(ms: 20_000) == 200)
        #expect(await client.log.wait { count($0, where: isSessionEnd) == 1 }, "\(client.log.summaries)")

        #expect(client.log.summaries == expected)
        #expect(client.loginStatus == .logout)
        #expect(client.log.records.last?.timeMs == start + 180_000)
        await client.shutdown()
        await server.stop()
    }
}
