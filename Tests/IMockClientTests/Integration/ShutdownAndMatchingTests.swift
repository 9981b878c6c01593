import IMockCore
import IMockNet
import Synchronization
import Testing
@testable import IMockClient

/// The shell's call bookkeeping: renewals matched by call id, calls racing `shutdown()`, TLS names.
@Suite("Client shell: call matching, shutdown race, TLS names")
struct ShutdownAndMatchingTests {
    /// Collects what completions received.
    final class Answers: Sendable {
        private let values = Mutex<[String]>([])
        var all: [String] { values.withLock { $0 } }
        func add(_ value: String) { values.withLock { $0.append(value) } }
        func done(_ name: String) -> @Sendable (ClientError?) -> Void {
            { error in self.add("\(name):\(error.map { String($0.code) } ?? "ok")") }
        }
    }

    @Test("E5: a renewal's completion answers the call it names, not the oldest waiting one")
    func renewalsMatchedByCallID() {
        let answers = Answers()
        var calls = PendingCalls()
        calls.add(.renewToken(callID: "r1", answers.done("r1")))
        calls.add(.renewToken(callID: "r2", answers.done("r2")))
        var current: PendingCall? = nil
        for run in calls.take(for: .renewTokenCompleted(callID: "r2", error: nil), current: &current) { run() }
        #expect(answers.all == ["r2:ok"])
        for run in calls.take(for: .renewTokenCompleted(callID: "r9", error: nil), current: &current) { run() }
        #expect(answers.all == ["r2:ok"])
        for run in calls.take(for: .renewTokenCompleted(callID: "r1", error: ClientError(code: 300, message: "")), current: &current) {
            run()
        }
        #expect(answers.all == ["r2:ok", "r1:300"])
    }

    @Test("a gate runs the aborts of unclaimed work once, oldest first, and refuses work after closing")
    func shutdownGate() throws {
        let answers = Answers()
        let gate = ShutdownGate()
        let first = try #require(gate.enter { answers.add("first") })
        let second = try #require(gate.enter { answers.add("second") })
        _ = try #require(gate.enter { answers.add("third") })
        #expect(gate.claim(second))
        #expect(!gate.claim(second))
        gate.close()
        #expect(answers.all == ["first", "third"])
        #expect(!gate.claim(first))
        #expect(gate.enter { answers.add("late") } == nil)
        gate.close()
        #expect(answers.all == ["first", "third"])
        #expect(gate.isClosed)
    }

    @Test("a call whose work was queued on a loop that never runs it fails as soon as shutdown begins")
    func callQueuedBeforeShutdown() async throws {
        let loop = try EventLoop()  // never started: the queued work never runs, like after a stop
        let client = try IMClient(
            options: try testOptions(profile: .zim), host: "127.0.0.1", port: 9, loop: loop)
        let answers = Answers()
        client.engine.submit(.login(user: "alice", token: "t"), call: .login(answers.done("login")))
        client.engine.submit(.renewToken("t2", callID: "r1"), call: .renewToken(callID: "r1", answers.done("renew")))
        #expect(answers.all.isEmpty)
        client.engine.beginShutdown()
        #expect(answers.all == ["login:6000121", "renew:6000121"])
        client.engine.submit(.logout(unbindDeviceToken: false), call: .logout(answers.done("logout")))
        #expect(answers.all == ["login:6000121", "renew:6000121", "logout:6000121"])
        #expect(await client.pendingTimers() == [:])
        await #expect(throws: ClientError(code: 6_000_121, message: "the client was shut down")) {
            _ = try await client.getLoggedInDevicesFromServer(userId: "alice", token: "t")
        }
        #expect(client.log.callbacks.isEmpty)
    }

    static let tlsNames: [(String, String?, String)] = [
        ("wss://im.example.com:8443/ws", "im.example.com", "im.example.com:8443"),
        ("wss://im.example.com/ws", "im.example.com", "im.example.com:443"),
        ("ws://im.example.com:8080/ws", nil, "im.example.com:8080"),
        ("wss://10.0.0.7:443/ws", nil, "10.0.0.7:443"),
        ("wss://[::1]:8443/ws", nil, "[::1]:8443"),
        ("wss://1.2.3.4.example:443/ws", "1.2.3.4.example", "1.2.3.4.example:443"),
    ]

    @Test("TLS SNI is the bare host name (never host:port, never an IP); the Host header keeps host:port", arguments: tlsNames)
    func tlsServerName(url: String, serverName: String?, hostHeader: String) throws {
        let endpoint = try ServerEndpoint(url: url)
        #expect(endpoint.tlsServerName == serverName)
        #expect(endpoint.hostHeader == hostHeader)
    }
}
