import FoundationEssentials
import IMockClient
import IMockCore
import IMockTestSupport
import Testing

/// Login outcomes over real sockets: refusals, an unreachable server, an offline login.
@Suite("Client login against a real server")
struct LoginIntegrationTests {
    @Test("C7: a bad token comes back as the login error (104), logged out, no reconnect")
    func badToken() async throws {
        let server = try ClientTestServer()
        _ = try server.userToken("alice")
        let client = try IMClient(options: try testOptions(profile: .easemob), host: "127.0.0.1", port: server.port)
        await #expect(throws: ClientError.self) { try await client.login(userId: "alice", token: "forged") }
        #expect(client.loginStatus == .logout)
        #expect(client.log.records.map(\.name) == ["onDatabaseOpened", "loginCompletion"])
        #expect(client.log.records.last?.arguments.last?.value["code"] == .int(104))
        #expect(await client.pendingTimers().isEmpty)
        await client.shutdown()
        await server.stop()
    }

    @Test("an unreachable server fails the login with the profile's code; the completion variant too")
    func unreachable() async throws {
        let refusing = try RefusingPort()
        let client = try IMClient(options: try testOptions(profile: .openim), serverURL: "ws://127.0.0.1:\(refusing.port)/ws")
        let error: ClientError? = await withCheckedContinuation { continuation in
            client.login(userId: "alice", token: "t") { continuation.resume(returning: $0) }
        }
        #expect(error?.code == 10003)
        #expect(client.log.records.map(\.name) == ["onConnecting", "onConnectFailure", "loginFailure"])
        #expect(client.loginStatus == .logout)
        await client.shutdown()
        withExtendedLifetime(refusing) {}
    }

    @Test("E9 O4: another account while logged in is refused (Easemob 218)")
    func otherAccountRefused() async throws {
        let server = try ClientTestServer()
        let aliceToken = try server.userToken("alice")
        let bobToken = try server.userToken("bob")
        let client = try IMClient(options: try testOptions(profile: .easemob), host: "127.0.0.1", port: server.port)
        try await client.login(userId: "alice", token: aliceToken)
        do {
            try await client.login(userId: "bob", token: bobToken)
            Issue.record("bob logged in over alice")
        } catch {
            #expect(error.code == 218)
        }
        #expect(client.currentUsername == "alice")
        try await client.logout(unbindDeviceToken: false)
        try await client.login(userId: "bob", token: bobToken)
        #expect(client.currentUsername == "bob")
        #expect(client.isConnected)
        await client.shutdown()
        await server.stop()
    }

    @Test("Z5: the remembered last online user logs in offline at once, then connects")
    func offlineLogin() async throws {
        let directory = "/tmp/imock-client-test-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ClientTestServer()
        let token = try server.userToken("alice")
        let first = try IMClient(
            options: try testOptions(profile: .zim), host: "127.0.0.1", port: server.port, dataDirectory: directory)
        try await first.login(userId: "alice", token: token)
        try await first.logout(unbindDeviceToken: false)
        await first.shutdown()

        let second = try IMClient(
            options: try testOptions(profile: .zim), host: "127.0.0.1", port: server.port, dataDirectory: directory)
        await #expect(throws: ClientError(code: 6_000_124, message: "offline login is for the last online user")) {
            try await second.login(userId: "bob", token: token, offline: true)
        }
        try await second.login(userId: "alice", token: token, offline: true)
        #expect(second.isLoggedIn)
        #expect(await second.log.wait { count($0, where: isConnected) == 1 })
        #expect(second.isConnected)
        #expect(second.log.summaries == [
            "loginCallback(errorCode: 6000124)",
            "loginCallback(errorCode: 0)",
            #"connectionStateChanged(state: "Connecting", event: "ActiveLogin")"#,
            #"connectionStateChanged(state: "Connected", event: "Success")"#,
        ])
        await second.shutdown()
        await server.stop()
    }

    @Test("after shutdown calls fail at once with the not-logged-in code; a second shutdown does nothing")
    func afterShutdown() async throws {
        let client = try IMClient(options: try testOptions(profile: .zim), host: "127.0.0.1", port: 9)
        await client.shutdown()
        await client.shutdown()
        await #expect(throws: ClientError(code: 6_000_121, message: "the client was shut down")) {
            try await client.login(userId: "alice", token: "t")
        }
        await #expect(throws: ClientError(code: 6_000_121, message: "the client was shut down")) {
            _ = try await client.getLoggedInDevicesFromServer(userId: "alice", token: "t")
        }
        #expect(await client.pendingTimers().isEmpty)
        #expect(client.log.callbacks.isEmpty)
    }
}
