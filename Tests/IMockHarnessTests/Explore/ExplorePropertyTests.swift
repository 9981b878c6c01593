import IMockClient
import IMockCore
import Testing

@testable import IMockHarness

/// Each property of `imock explore` on hand-made traces: one it accepts, one it rejects.
@Suite("Explore properties")
struct ExplorePropertyTests {
    /// A hand-made trace: operations, callbacks and server frames in order.
    struct TraceBuilder {
        var profile: SDKProfile = .easemob
        var events: [ExploreTrace.Event] = []
        var step = 0
        var sequence: UInt64 = 0

        mutating func operation(_ index: Int) {
            step = index
            events.append(.operation(index))
        }

        mutating func callback(_ device: String, _ name: String, _ arguments: [(String, JSONValue)] = [], at timeMs: Int64 = 0) {
            sequence += 1
            let callback = ObservedCallback(
                sequence: sequence, device: device, name: name, arguments: arguments.map { CallbackArgument($0.0, $0.1) },
                timeMs: timeMs, stepIndex: step)
            events.append(.callback(callback, LinkEvent(callback, profile: profile)))
        }

        mutating func server(_ device: String, _ op: String, code: Int? = nil) {
            events.append(.server(device: device, op: op, code: code, atMs: 0))
        }

        mutating func loggedIn(_ device: String) {
            callback(device, "loginCompletion", [("username", "u1"), ("error", nil)])
            callback(device, "connectionStateDidChange", [("state", "connected")])
        }

        /// d1 logs in (operation 0), is kicked with `code` (operation 1) and reports the drop.
        static func kicked(_ code: Int) -> TraceBuilder {
            var trace = TraceBuilder()
            trace.operation(0)
            trace.loggedIn("d1")
            trace.operation(1)
            trace.server("d1", "kicked", code: code)
            trace.callback("d1", "connectionStateDidChange", [("state", "disconnected")])
            return trace
        }

        func trace(completed: Int) -> ExploreTrace { ExploreTrace(events: events, completedOperations: completed) }
    }

    static func program(_ operations: [ExploreOperation], devices: [String] = ["d1"]) -> ExploreProgram {
        ExploreProgram(
            profile: .easemob, policy: ["vendor": "easemob"], users: ["u1"],
            devices: devices.map { ExploreDevice(name: $0, user: "u1", platform: "ios") }, operations: operations)
    }

    static func property(_ id: String) -> ExploreProperty { ExploreProperty.all.first { $0.id == id }! }

    @Test("no reconnect after a session end: a kick handled as an end passes; a kick taken for a drop and recovered fails")
    func noReconnectAfterSessionEnd() throws {
        let program = Self.program([.login(device: "d1", ttlSeconds: nil), .kick(user: "u1", device: "d1", code: 217), .advance(ms: 5000)])
        var good = TraceBuilder.kicked(217)
        good.callback("d1", "userAccountDidForcedToLogout", [("code", 217)])
        good.operation(2)
        let property = Self.property("no-reconnect-after-session-end")
        #expect(property.check(good.trace(completed: 3), program) == nil)

        var bad = TraceBuilder.kicked(217)
        bad.operation(2)
        bad.callback("d1", "connectionStateDidChange", [("state", "connected")])
        let violation = try #require(property.check(bad.trace(completed: 3), program))
        #expect(violation.device == "d1" && violation.operation == 2)
        #expect(violation.witness == .absent(pattern: "d1: connectionStateDidChange(state: \"connected\")", since: 1))

        // A device that reported the kick (its callback) and connects again anyway (the Web SDK after a 305).
        var reportedThenBack = good
        reportedThenBack.callback("d1", "connectionStateDidChange", [("state", "connected")])
        #expect(try #require(property.check(reportedThenBack.trace(completed: 3), program)).message.contains("reported its session over"))
        var loggedInAgain = good
        loggedInAgain.loggedIn("d1")
        #expect(property.check(loggedInAgain.trace(completed: 3), program) == nil)

        // The same trace while a black hole holds the user's connections: the kick may never have come.
        let held = Self.program([.network(.blackhole, device: "d1")] + program.operations)
        var shifted = TraceBuilder()
        shifted.operation(0)
        for event in bad.events {
            if case .operation(let index) = event { shifted.operation(index + 1) } else { shifted.events.append(event) }
        }
        #expect(property.check(shifted.trace(completed: 4), held) == nil)
    }

    @Test("the kick callback matches its code (easemob)")
    func kickCallbackMatchesCode() throws {
        let program = Self.program([.login(device: "d1", ttlSeconds: nil), .kick(user: "u1", device: "d1", code: 216)])
        let property = Self.property("kick-callback-matches-code")
        for (name, code, holds) in [("userAccountDidForcedToLogout", 216, true), ("userAccountDidForcedToLogout", 217, false), ("userDidForbidByServer", 216, false)] {
            var trace = TraceBuilder.kicked(216)
            trace.callback("d1", name, [("code", .int(Int64(code)))])
            let violation = property.check(trace.trace(completed: 2), program)
            #expect((violation == nil) == holds, "\(name)(\(code))")
            if let violation { #expect(violation.witness == .sequence(patterns: ["userAccountDidForcedToLogout(code: 216)"], since: 1)) }
        }
    }

    @Test("the kick tables of openim and zim; over OpenIM's gateway every kick is 2002")
    func kickTables() throws {
        #expect(KickTableProperty.expected(104, profile: .openim, transport: .imockJSON).name == "onUserTokenInvalid")
        #expect(KickTableProperty.expected(104, profile: .openim, transport: .openIM).name == "onKickedOffline")
        #expect(KickTableProperty.expected(217, profile: .openim, transport: .imockJSON).name == "onKickedOffline")
        let zim = KickTableProperty.expected(108, profile: .zim, transport: .imockJSON)
        #expect(zim.name == "connectionStateChanged" && zim.arguments.last?.1 == "TokenExpired")
        var program = Self.program([.login(device: "d1", ttlSeconds: nil), .kick(user: "u1", device: "d1", code: 104)])
        program.profile = .openim
        var trace = TraceBuilder()
        trace.profile = .openim
        trace.operation(0)
        trace.callback("d1", "onConnecting")
        trace.callback("d1", "loginSuccess")
        trace.callback("d1", "onConnectSuccess")
        trace.operation(1)
        trace.server("d1", "kicked", code: 104)
        trace.callback("d1", "onKickedOffline")
        let property = Self.property("kick-callback-matches-code-openim")
        #expect(try #require(property.check(trace.trace(completed: 2), program)).witness == .sequence(patterns: ["onUserTokenInvalid"], since: 1))
        var overGateway = trace.trace(completed: 2)
        overGateway.transport = .openIM
        #expect(property.check(overGateway, program) == nil)
        // A kick sent after the device saw its connection fail is on a socket it left: not judged.
        var left = TraceBuilder()
        left.profile = .openim
        left.events = Array(trace.events.prefix(4))
        left.callback("d1", "onConnectFailure", [("code", 10003), ("message", "connection lost")])
        left.operation(1)
        left.server("d1", "kicked", code: 207)
        left.callback("d1", "onUserTokenInvalid", [("message", "token does not exist")])
        #expect(property.check(left.trace(completed: 2), program) == nil)
    }

    @Test("a successful login is followed at once by connected")
    func loginThenConnected() throws {
        let program = Self.program([.login(device: "d1", ttlSeconds: nil)])
        let property = Self.property("login-then-connected")
        var good = TraceBuilder()
        good.operation(0)
        good.callback("d1", "onDatabaseOpened", [("error", nil), ("username", "u1")])
        good.loggedIn("d1")
        #expect(property.check(good.trace(completed: 1), program) == nil)

        var bad = TraceBuilder()
        bad.operation(0)
        bad.callback("d1", "loginCompletion", [("username", "u1"), ("error", nil)])
        bad.callback("d1", "onOfflineMessageSyncStart")
        bad.callback("d1", "connectionStateDidChange", [("state", "connected")])
        let violation = try #require(property.check(bad.trace(completed: 1), program))
        #expect(violation.witness == .sequence(patterns: ["loginCompletion", "connectionStateDidChange(state: \"connected\")"], since: 0))
    }

    @Test("after a logout nothing comes that the app's calls did not cause")
    func quietAfterLogout() throws {
        let program = Self.program([.login(device: "d1", ttlSeconds: nil), .logout(device: "d1"), .send(device: "d1", to: "u1", text: "m1"), .advance(ms: 10_000)])
        let property = Self.property("no-callback-after-logout")
        var good = TraceBuilder()
        good.operation(0)
        good.loggedIn("d1")
        good.operation(1)
        good.callback("d1", "logoutCompletion", [("error", nil)])
        good.operation(2)
        good.callback("d1", "sendMessageCompletion", [("messageId", nil), ("error", ["code": 201])])
        good.operation(3)
        #expect(property.check(good.trace(completed: 4), program) == nil)

        var bad = good
        bad.callback("d1", "connectionStateDidChange", [("state", "connected")])
        let violation = try #require(property.check(bad.trace(completed: 4), program))
        #expect(violation.operation == 3 && violation.witness == .absent(pattern: "d1: connectionStateDidChange(state: \"connected\")", since: 2))
    }

    @Test("a dropped device is connected again after the quiet end; only when the program ends quiet")
    func droppedDeviceReconnects() throws {
        let program = Self.program([.login(device: "d1", ttlSeconds: nil), .network(.cut, device: "d1"), .network(.restore, device: "d1"), .advance(ms: 120_000)])
        let property = Self.property("dropped-device-reconnects")
        var bad = TraceBuilder()
        bad.operation(0)
        bad.loggedIn("d1")
        bad.operation(1)
        bad.callback("d1", "connectionStateDidChange", [("state", "disconnected")])
        bad.operation(3)
        var good = bad
        good.callback("d1", "connectionStateDidChange", [("state", "connected")])
        #expect(property.check(good.trace(completed: 4), program) == nil)
        let violation = try #require(property.check(bad.trace(completed: 4), program))
        #expect(violation.witness == .connected)
        var unquiet = program
        unquiet.operations.removeLast()
        #expect(property.check(bad.trace(completed: 3), unquiet) == nil)
    }

    @Test("no token warning after the expiry, nor early after a renewal")
    func tokenWarningOrder() throws {
        let program = Self.program([.login(device: "d1", ttlSeconds: 100), .renewToken(device: "d1", ttlSeconds: 600), .advance(ms: 100_000)])
        let property = Self.property("token-warning-order")
        func renewed(warningAt timeMs: Int64) -> ExploreTrace {
            var trace = TraceBuilder()
            trace.operation(0)
            trace.loggedIn("d1")
            trace.operation(1)
            trace.callback("d1", "renewTokenCompletion", [("error", nil)], at: 80_000)
            trace.operation(2)
            trace.callback("d1", "tokenWillExpire", [("errorCode", 109)], at: timeMs)
            return trace.trace(completed: 3)
        }
        #expect(property.check(renewed(warningAt: 560_000), program) == nil)
        let violation = try #require(property.check(renewed(warningAt: 100_000), program))
        #expect(violation.witness == .absent(pattern: "d1: tokenWillExpire(errorCode: 109)", since: 2))

        var late = TraceBuilder()
        late.operation(0)
        late.loggedIn("d1")
        late.operation(2)
        late.callback("d1", "connectionStateDidChange", [("state", "disconnected")])
        late.callback("d1", "tokenDidExpire", [("errorCode", 108)])
        late.callback("d1", "tokenWillExpire", [("errorCode", 109)])
        #expect(property.check(late.trace(completed: 3), program) != nil)
    }

    @Test("messages: once each, one sender's in order")
    func messagesOnceInOrder() throws {
        let program = Self.program([.send(device: "d1", to: "u1", text: "m1"), .send(device: "d1", to: "u1", text: "m2")], devices: ["d1", "d2"])
        let property = Self.property("messages-once-in-order")
        func message(_ trace: inout TraceBuilder, _ text: String) {
            trace.callback("d2", "messagesDidReceive", [("messageId", .string("id-" + text)), ("from", "u1"), ("text", .string(text))])
        }
        var good = TraceBuilder()
        good.operation(0)
        message(&good, "m1")
        good.operation(1)
        message(&good, "m2")
        #expect(property.check(good.trace(completed: 2), program) == nil)

        var twice = good
        message(&twice, "m2")
        #expect(try #require(property.check(twice.trace(completed: 2), program)).witness
            == .absent(pattern: "d2: messagesDidReceive(text: \"m2\")", since: 1))

        var swapped = TraceBuilder()
        swapped.operation(1)
        message(&swapped, "m2")
        message(&swapped, "m1")
        #expect(try #require(property.check(swapped.trace(completed: 2), program)).witness
            == .order(first: "d2: messagesDidReceive(text: \"m1\")", then: "d2: messagesDidReceive(text: \"m2\")"))
    }

    @Test("device limits: a kicked device reports its end before the newcomer connects; two connected over a limit of one fail")
    func deviceLimit() throws {
        var program = Self.program([.login(device: "d1", ttlSeconds: nil), .login(device: "d2", ttlSeconds: nil)], devices: ["d1", "d2"])
        program.policy = ["vendor": "easemob", "deviceLimits": ["mobile": 1]]
        let property = Self.property("device-limit")
        var good = TraceBuilder()
        good.operation(0)
        good.loggedIn("d1")
        good.operation(1)
        good.server("d1", "kicked", code: 206)
        good.callback("d1", "connectionStateDidChange", [("state", "disconnected")])
        good.callback("d1", "userAccountDidLoginFromOtherDevice", [("info", nil)])
        good.loggedIn("d2")
        #expect(property.check(good.trace(completed: 2), program) == nil)

        var bad = TraceBuilder()
        bad.operation(0)
        bad.loggedIn("d1")
        bad.operation(1)
        bad.loggedIn("d2")
        let violation = try #require(property.check(bad.trace(completed: 2), program))
        #expect(violation.device == "d1" && violation.witness == .notConnected)
        // Two groups, or a policy of two: no violation.
        program.policy = ["vendor": "easemob", "deviceLimits": ["mobile": 2]]
        #expect(property.check(bad.trace(completed: 2), program) == nil)
        // Single-device, first device wins: the newcomer is the one that must not be connected.
        program.policy = ["vendor": "easemob", "mode": "singleDevice", "rule": "firstDeviceWins"]
        #expect(try #require(property.check(bad.trace(completed: 2), program)).device == "d2")
    }

    @Test("--unknown names a property by id or by rule; every property cites rules of CONFORMANCE.md")
    func unknownAndRules() {
        var configuration = ExploreConfiguration()
        configuration.unknown = ["C10", "login-then-connected"]
        let ids = configuration.properties.map(\.id)
        #expect(!ids.contains("messages-once-in-order") && !ids.contains("login-then-connected"))
        #expect(ids.contains("no-reconnect-after-session-end"))
        for property in ExploreProperty.all { #expect(property.ruleReferences.count == property.rules.count, "\(property.id)") }
    }
}
