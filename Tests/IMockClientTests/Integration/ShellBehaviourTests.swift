import Dispatch
import FoundationEssentials
import IMockClient
import IMockCommon
import IMockCore
import Testing

/// The shell's own duties against a real server: REST devices, databases, delegates, timers.
@Suite("Client shell against a real server")
struct ShellBehaviourTests {
    @Test("S6: getLoggedInDevicesFromServer works without being logged in")
    func devicesWithoutLoginS6() async throws {
        let server = try ClientTestServer()
        let token = try server.userToken("alice")
        let phone = try IMClient(options: try testOptions(profile: .easemob), host: "127.0.0.1", port: server.port)
        try await phone.login(userId: "alice", token: token)
        let other = try IMClient(
            options: try testOptions(profile: .easemob, uuid: "dev2", name: "tablet"), host: "127.0.0.1", port: server.port)
        #expect(other.loginStatus == .logout)

        let devices = try await other.getLoggedInDevicesFromServer(userId: "alice", token: token)
        #expect(devices == [LoggedInDevice(resource: "ios_dev1", deviceUUID: "dev1", deviceName: "phone")])
        #expect(other.loginStatus == .logout)
        #expect(other.log.callbacks.isEmpty)

        await #expect(throws: ClientError.self) {
            _ = try await other.getLoggedInDevicesFromServer(userId: "alice", token: "not-a-token")
        }
        do {
            _ = try await other.getLoggedInDevicesFromServer(userId: "alice", token: "not-a-token")
        } catch {
            #expect(error.code == 401)
        }
        await phone.shutdown()
        await other.shutdown()
        await server.stop()
    }

    @Test("E2 C5 Z5: a database file per user, received messages stored, lastOnlineUser persisted")
    func databasePerUser() async throws {
        let directory = "/tmp/imock-client-test-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ClientTestServer()
        let aliceToken = try server.userToken("alice")
        let bobToken = try server.userToken("bob")
        let alice = try IMClient(
            options: try testOptions(profile: .easemob), host: "127.0.0.1", port: server.port, dataDirectory: directory)
        let bob = try IMClient(
            options: try testOptions(profile: .easemob, uuid: "dev2"), host: "127.0.0.1", port: server.port)
        #expect(alice.lastOnlineUser == nil)

        try await alice.login(userId: "alice", token: aliceToken)
        #expect(FileManager.default.fileExists(atPath: directory + "/alice.sqlite"))
        #expect(IMClient.databasePath(user: "alice", dataDirectory: directory) == directory + "/alice.sqlite")
        #expect(!FileManager.default.fileExists(atPath: directory + "/bob.sqlite"))
        #expect(alice.lastOnlineUser == "alice")

        try await bob.login(userId: "bob", token: bobToken)
        let messageId = try await bob.send(to: "alice", text: "hi")
        #expect(await alice.log.wait { count($0, where: isMessage) == 1 })
        #expect(await alice.storedMessageIDs() == [messageId])

        try await alice.logout(unbindDeviceToken: false)
        #expect(alice.loginStatus == .logout)
        await alice.shutdown()

        let saved = try Data(contentsOf: URL(fileURLWithPath: directory + "/lastOnlineUser"))
        #expect(String(decoding: saved, as: UTF8.self) == "alice")
        let again = try IMClient(
            options: try testOptions(profile: .zim), host: "127.0.0.1", port: server.port, dataDirectory: directory)
        #expect(again.lastOnlineUser == "alice")
        await again.shutdown()
        await bob.shutdown()
        await server.stop()
    }

    @Test("C4: a removed delegate gets nothing; one added after login misses what came before")
    func delegates() async throws {
        let server = try ClientTestServer()
        let token = try server.userToken("alice")
        let queue = DispatchQueue(label: "test.delegates")
        let client = try IMClient(options: try testOptions(profile: .easemob), host: "127.0.0.1", port: server.port)
        let kept = RecordingDelegate()
        let removed = RecordingDelegate()
        let late = RecordingDelegate()
        client.addDelegate(kept, queue: queue)
        client.addDelegate(removed, queue: queue)
        client.removeDelegate(removed)

        try await client.login(userId: "alice", token: token)
        client.addDelegate(late)
        try await client.logout(unbindDeviceToken: false)
        await withCheckedContinuation { continuation in client.logout(unbindDeviceToken: false) { _ in continuation.resume() } }
        queue.sync {}

        let login = [
            #"onDatabaseOpened(error: null, username: "alice")"#, #"loginCompletion(username: "alice", error: null)"#,
            #"connectionStateDidChange(state: "connected")"#,
        ]
        #expect(kept.summaries == login + ["logoutCompletion(error: null)", "logoutCompletion(error: null)"])
        #expect(removed.summaries.isEmpty)
        #expect(late.summaries == ["logoutCompletion(error: null)", "logoutCompletion(error: null)"])
        #expect(client.log.summaries == login + ["logoutCompletion(error: null)", "logoutCompletion(error: null)"])
        await client.shutdown()
        await server.stop()
    }

    @Test("timers on a shared timeline: a drop reconnects only when the test moves the timeline")
    func timelineTimers() async throws {
        // Its client never pings (its timers wait for the timeline): the fixture's patient idle
        // timeout keeps the server from closing it while a busy machine holds the test back.
        let server = try ClientTestServer()
        let token = try server.userToken("alice")
        let timeline = Timeline(mode: .virtual, startMs: 5_000)
        let client = try IMClient(
            options: try testOptions(profile: .zim), host: "127.0.0.1", port: server.port, timerMode: .shared(timeline))
        try await client.login(userId: "alice", token: token)
        #expect(await client.pendingTimers() == [.keepAlive: 15_000])
        #expect(timeline.nextDeadlineMs == 15_000)

        try server.control("POST", "/_imock/faults", json: #"{"kind":"drop","app":"acme#chat","user":"alice"}"#)
        #expect(await client.log.wait { count($0, where: isConnectionLost) == 1 })
        let timers = await client.pendingTimers()
        #expect(Array(timers.keys) == [.reconnect])
        let reconnectAtMs = timers[.reconnect] ?? 0
        #expect((5_005...5_010).contains(reconnectAtMs))
        #expect(timeline.nextDeadlineMs == timers[.reconnect])
        #expect(client.isLoggedIn)
        #expect(!client.isConnected)

        try timeline.advance(by: 1_000)
        #expect(await client.log.wait { count($0, where: isConnected) == 2 })
        #expect(client.isConnected)
        // The reconnect fires at its deadline inside the advance; the connection completes on
        // the loop thread, before or after the advance reaches its end (6,000) on a loaded machine.
        let connectedAtMs = client.log.records.last?.timeMs ?? 0
        #expect((reconnectAtMs...6_000).contains(connectedAtMs), "connected at \(connectedAtMs)")
        await client.shutdown()
        await server.stop()
    }
}
