import Foundation
import IMockClient
import IMockCore
import IMockTestSupport
import Testing

/// The reference client over OpenIM's gateway (`ClientTransport.openIM`): the login in the
/// upgrade, offline messages pulled by seq (1001, 1002), messages sent (1003) and pushed (2001),
/// a policy kick (2002), refused tokens, logout (2003).
@Suite("Reference client over the OpenIM gateway")
struct OpenIMTransportTests {
    static func options(_ platform: OpenIMPlatform, uuid: String) throws -> ClientOptions {
        try ClientOptions(
            appKey: ClientTestServer.app, device: DeviceDescription(platform: .openIM(platform), name: "phone", uuid: uuid),
            profile: .openim, reconnect: ReconnectPolicy(steps: [.init(throughAttempt: nil, minMs: 5, maxMs: 10)]),
            randomSeed: 7, transport: .openIM)
    }

    static func server(policy: Int = 1) throws -> ClientTestServer {
        let server = try ClientTestServer()
        let policy = try server.control(
            "POST", "/_imock/apps/acme/chat/settings", json: #"{"loginPolicy":{"vendor":"openim","policy":\#(policy)}}"#)
        try #require(policy.status == 200)
        return server
    }

    @Test("offline messages pulled at login, live ones pushed, sends answered, logout")
    func messaging() async throws {
        let server = try Self.server()
        let (aliceToken, bobToken) = (try server.userToken("alice"), try server.userToken("bob"))
        let alice = try IMClient(options: try Self.options(.ios, uuid: "a1"), host: "127.0.0.1", port: server.port)
        let bob = try IMClient(options: try Self.options(.android, uuid: "b1"), host: "127.0.0.1", port: server.port)
        try await alice.login(userId: "alice", token: aliceToken)
        #expect(alice.isConnected)
        let first = try await alice.send(to: "bob", text: "while you were away")
        let second = try await alice.send(to: "bob", text: "and again")

        try await bob.login(userId: "bob", token: bobToken)
        #expect(await bob.log.wait { count($0, where: isMessage) == 2 })
        #expect(await bob.storedMessageIDs() == [first, second])
        let offline = bob.log.callbacks.compactMap { callback -> String? in
            if case .messageReceived(let message, true) = callback.canonical { message.text } else { nil }
        }
        #expect(offline == ["while you were away", "and again"])
        let reply = try await bob.send(to: "alice", text: "hi")
        #expect(await alice.log.wait { count($0, where: isMessage) == 1 })
        #expect(alice.log.callbacks.contains {
            if case .messageReceived(let message, false) = $0.canonical { message.messageId == reply && message.text == "hi" } else { false }
        })
        try await bob.logout(unbindDeviceToken: false)
        #expect(bob.loginStatus == .logout)
        // Pulled means acked: bob's next login finds nothing waiting (its newest seqs are empty).
        let again = try IMClient(options: try Self.options(.android, uuid: "b2"), host: "127.0.0.1", port: server.port)
        try await again.login(userId: "bob", token: bobToken)
        #expect(await again.roundTrip())
        #expect(await again.roundTrip())
        #expect(count(again.log.callbacks, where: isMessage) == 0)
        for client in [alice, bob, again] { await client.shutdown() }
        await server.stop()
    }

    /// Devices logging in one after the other: iOS, Windows, Android, OSX, then iOS again.
    static let logins: [(name: String, platform: OpenIMPlatform)] = [
        ("ios", .ios), ("windows", .windows), ("android", .android), ("osx", .osx), ("ios2", .ios),
    ]

    @Test("policies 0, 1, 4 and 5 kick the right connections over the gateway", arguments: [
        (0, Set<String>()), (1, ["ios"]), (4, ["ios", "windows", "android"]), (5, ["ios", "android"]),
    ] as [(Int, Set<String>)])
    func policies(policy: Int, kicked: Set<String>) async throws {
        let server = try Self.server(policy: policy)
        var clients: [(name: String, client: IMClient)] = []
        for (name, platform) in Self.logins {
            let client = try IMClient(options: try Self.options(platform, uuid: name), host: "127.0.0.1", port: server.port)
            try await client.login(userId: "alice", token: try server.userToken("alice", register: clients.isEmpty))
            clients.append((name, client))
        }
        for (name, client) in clients {
            if kicked.contains(name) {
                #expect(await client.log.wait { count($0, where: isSessionEnd) == 1 }, "\(name) is kicked")
                #expect(client.log.records.last?.name == "onKickedOffline", "\(name)")
            } else {
                #expect(await client.roundTrip(), "\(name) stays connected")
                #expect(count(client.log.callbacks, where: isSessionEnd) == 0, "\(name)")
            }
            await client.shutdown()
        }
        await server.stop()
    }

    @Test("policy 1 kicks the first device with 2002; its token then gets 1506 → a kick at the handshake; another user's token → 202")
    func kicksAndRefusals() async throws {
        let server = try Self.server()
        let token = try server.userToken("alice")
        let first = try IMClient(options: try Self.options(.ios, uuid: "p1"), host: "127.0.0.1", port: server.port)
        let second = try IMClient(options: try Self.options(.ios, uuid: "p2"), host: "127.0.0.1", port: server.port)
        try await first.login(userId: "alice", token: token)
        try await second.login(userId: "alice", token: try server.userToken("alice", register: false))
        #expect(await first.log.wait { count($0, where: isSessionEnd) == 1 })
        #expect(first.log.records.last?.name == "onKickedOffline")
        #expect(first.loginStatus == .logout)
        // The kicked token is refused with 1506, which the client hears as a kick.
        let third = try IMClient(options: try Self.options(.ios, uuid: "p3"), host: "127.0.0.1", port: server.port)
        await #expect(throws: ClientError(code: 2002, message: "TokenKickedError: the token was kicked (OpenIM 1506)")) {
            try await third.login(userId: "alice", token: token)
        }
        let other = try IMClient(options: try Self.options(.ios, uuid: "p4"), host: "127.0.0.1", port: server.port)
        let aliceToken = try server.userToken("alice", register: false)
        let refused: ClientError? = await withCheckedContinuation { done in
            other.login(userId: "bob", token: aliceToken) { done.resume(returning: $0) }
        }
        #expect(refused?.code == 202 && refused?.message.hasSuffix("(OpenIM 1502)") == true)
        for client in [first, second, third, other] { await client.shutdown() }
        await server.stop()
    }
}
