import IMockHarness
import Testing

extension HarnessTests {
    /// In process the reference devices' timers are on the server's own `Timeline`
    /// (docs/ARCHITECTURE.md § One clock).
    @Suite("One clock: device and server timers on one Timeline")
    struct OneClockTests {
        @Test("one advance fires a device's reconnect back-off between the server's token warning and expiry, each at its deadline; a token no session holds is no stop")
        func deadlineOrder() async throws {
            let fixture = try parseFixture("""
                {"name": "one clock", "rules": [{"id": "C9", "source": "004 § 自动重连"}],
                 "apps": [{"name": "chat", "users": ["alice", "bob"]}],
                 "devices": [
                   {"name": "phone", "user": "alice", "keepAlive": "1h", "reconnect": {"min": "9s", "max": "9s"}},
                   {"name": "pad", "user": "bob", "platform": "android", "keepAlive": "1h"}],
                 "steps": [
                   {"do": "login", "device": "pad", "token": {"ttl": "10s"}, "result": {"error": null}},
                   {"do": "login", "device": "phone", "result": {"error": null}},
                   {"issueToken": "unused", "user": "alice", "ttl": "5s"},
                   {"control": "fault", "kind": "drop", "device": "phone", "status": 200},
                   {"advance": "20s"},
                   {"expect": "sequence", "device": "pad", "callbacks": [
                     {"callback": "tokenWillExpire", "at": "8s"}, {"callback": "tokenDidExpire", "at": "10s"}]},
                   {"expect": "sequence", "device": "phone", "callbacks": [
                     {"callback": "connectionStateDidChange", "args": {"state": "disconnected"}, "at": "0s"},
                     {"callback": "connectionStateDidChange", "args": {"state": "connected"}, "at": "9s"}]}]}
                """)
            let result = await run(fixture)
            #expect(result.outcome == .passed, "\(ConsoleReport.scenario(result))")
            let start = result.startMs
            let moves = result.timeline.compactMap { event -> [Int64]? in
                guard case .clock(let from, let to) = event else { return nil }
                return [from - start, to - start]
            }
            // The stops are the timeline's deadlines: the warning, the back-off, the expiry.
            #expect(moves == [[0, 8_000], [8_000, 9_000], [9_000, 10_000], [10_000, 20_000]])
            let order = result.timeline.compactMap { event -> String? in
                guard case .callback(let callback) = event, callback.timeMs > start else { return nil }
                return "\(callback.device) \(callback.name) \(callback.timeMs - start)"
            }
            #expect(order.prefix(3) == ["pad tokenWillExpire 8000", "phone connectionStateDidChange 9000", "pad connectionStateDidChange 10000"], "\(order)")
        }

        @Test("keep-alives a jump passes are held on the timeline, not stops: a 2-minute advance is one move and the connection stays")
        func keepAlivesHeld() async throws {
            let fixture = try parseFixture(miniFixture(steps: """
                [{"do": "login", "device": "phone", "result": {"error": null}},
                 {"advance": "2m"},
                 {"expect": "state", "device": "phone", "loggedIn": true, "connected": true}]
                """))
            let result = await run(fixture)
            #expect(result.outcome == .passed, "\(ConsoleReport.scenario(result))")
            let moves = result.timeline.compactMap { event -> Int64? in
                guard case .clock(let from, let to) = event else { return nil }
                return to - from
            }
            #expect(moves == [120_000])
            let states = result.timeline.compactMap { event -> String? in
                guard case .callback(let callback) = event, callback.name == "connectionStateDidChange" else { return nil }
                return callback.summary
            }
            #expect(states == ["connectionStateDidChange(state: \"connected\")"])
        }
    }
}
