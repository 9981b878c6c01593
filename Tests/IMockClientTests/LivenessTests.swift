import IMockCore
import Testing
@testable import IMockClient

/// Client-side liveness on the pure machine: automatic attempts run under the login timeout,
/// and a ping without a `pong` within twice the keep-alive interval counts as a drop.
@Suite("Client liveness: attempt timeout and missing pong")
struct LivenessTests {
    /// Logged in, dropped, and reconnect attempt 1 opened (socket not yet open).
    static func reconnecting(_ profile: SDKProfile) throws -> Driver {
        var driver = try Driver(profile: profile)
        driver.loginOnline()
        driver.on(.socketClosed(generation: 1, sessionEndCode: nil, reason: ""))
        let retry = driver.on(.timerFired(.reconnect))
        #expect(Driver.others(in: retry) == [.scheduleTimer(.loginTimeout, afterMs: 30_000), .openSocket(generation: 2)])
        return driver
    }

    @Test("C2 O2: a reconnect whose socket opened but got no login reply in time is a failed attempt")
    func reconnectReplyTimeout() throws {
        var driver = try Self.reconnecting(.openim)
        let sent = driver.on(.socketOpened(generation: 2))
        guard case .sendRequest(2, .login(let id, _)) = sent.first else {
            Issue.record("no login frame")
            return
        }
        let timedOut = driver.on(.timerFired(.loginTimeout))
        #expect(Driver.callbacks(in: timedOut) == [#"onConnectFailure(code: 10004, message: "login timed out")"#])
        #expect(Driver.others(in: timedOut) == [
            .closeSocket(generation: 2, code: 1000), .cancelTimer(.keepAlive), .cancelTimer(.pongTimeout),
            .cancelTimer(.loginTimeout), .scheduleTimer(.reconnect, afterMs: 2000),
        ])
        #expect(driver.machine.isLoggedIn && !driver.machine.isConnected)
        // The late reply of the abandoned socket changes nothing; the next attempt runs.
        #expect(driver.on(.serverSaid(generation: 2, .reply(id, .loginAccepted(resource: "r", tokenExpiresAt: nil, serverTime: 0)))).isEmpty)
        #expect(Driver.others(in: driver.on(.timerFired(.reconnect))) == [
            .scheduleTimer(.loginTimeout, afterMs: 30_000), .openSocket(generation: 3),
        ])
    }

    @Test("C2: a reconnect socket that never opens also times out; Easemob reports nothing and goes on")
    func reconnectSocketTimeout() throws {
        var driver = try Self.reconnecting(.easemob)
        let timedOut = driver.on(.timerFired(.loginTimeout))
        #expect(Driver.callbacks(in: timedOut).isEmpty)
        #expect(timedOut.first == .closeSocket(generation: 2, code: 1000))
        guard case .scheduleTimer(.reconnect, let delay) = timedOut.last else {
            Issue.record("no next attempt: \(timedOut)")
            return
        }
        #expect((1000..<2000).contains(delay))
    }

    @Test("login.ok of a reconnect stops its timeout; a stale firing does nothing")
    func reconnectSucceeds() throws {
        var driver = try Self.reconnecting(.zim)
        driver.on(.socketOpened(generation: 2))
        let up = driver.on(.serverSaid(generation: 2, .reply(driver.lastSentID ?? "", .loginAccepted(resource: "r", tokenExpiresAt: nil, serverTime: 0))))
        #expect(up.contains(.cancelTimer(.loginTimeout)))
        #expect(driver.on(.timerFired(.loginTimeout)).isEmpty)
        #expect(driver.machine.isConnected)
    }

    @Test("Z5: the background attempt of an offline login runs under the login timeout too")
    func offlineLoginAttemptTimeout() throws {
        var driver = try Driver(profile: .zim, lastOnlineUser: "alice")
        driver.on(.login(user: "alice", token: "t1", offline: true))
        let opened = driver.on(.databaseOpened(epoch: 1, error: nil))
        #expect(Driver.others(in: opened) == [.scheduleTimer(.loginTimeout, afterMs: 30_000), .openSocket(generation: 1)])
        let timedOut = driver.on(.timerFired(.loginTimeout))
        #expect(driver.machine.isLoggedIn)
        guard case .scheduleTimer(.reconnect, _) = timedOut.last else {
            Issue.record("no next attempt: \(timedOut)")
            return
        }
    }

    @Test("keep-alive: no pong within 2 × the interval is a recoverable drop (reconnect)")
    func missingPong() throws {
        var driver = try Driver(profile: .easemob)
        driver.loginOnline()
        #expect(driver.machine.options.pongTimeoutMs == 20_000)
        driver.on(.timerFired(.keepAlive))
        // A second ping while the first is unanswered keeps the first deadline.
        #expect(driver.on(.timerFired(.keepAlive)) == [
            .sendRequest(generation: 1, .ping(nil)), .scheduleTimer(.keepAlive, afterMs: 10_000),
        ])
        driver.on(.send(localID: "m1", to: "bob", text: "hi"))
        let dropped = driver.on(.timerFired(.pongTimeout))
        #expect(Driver.callbacks(in: dropped) == [
            #"sendMessageCompletion(messageId: null, error: {"code":300,"message":"no pong within 20000 ms"})"#,
            #"connectionStateDidChange(state: "disconnected")"#,
        ])
        #expect(dropped.first == .closeSocket(generation: 1, code: 1001))
        guard case .scheduleTimer(.reconnect, _) = dropped.last else {
            Issue.record("no reconnect: \(dropped)")
            return
        }
        #expect(driver.machine.isLoggedIn && !driver.machine.isConnected)
        #expect(driver.on(.socketClosed(generation: 1, sessionEndCode: nil, reason: "")).isEmpty)
    }

    @Test("keep-alive: a pong stops the deadline; the next ping starts a new one")
    func pongArrives() throws {
        var driver = try Driver(profile: .openim)
        driver.loginOnline()
        driver.on(.timerFired(.keepAlive))
        #expect(driver.on(.serverSaid(generation: 1, .reply(nil, .pong(serverTime: 5)))) == [.cancelTimer(.pongTimeout)])
        #expect(driver.on(.serverSaid(generation: 1, .reply(nil, .pong(serverTime: 6)))).isEmpty)
        #expect(driver.on(.timerFired(.pongTimeout)).isEmpty)
        #expect(driver.machine.isConnected)
        #expect(driver.on(.timerFired(.keepAlive)).last == .scheduleTimer(.pongTimeout, afterMs: 20_000))
    }

    @Test("keep-alive: after a drop and reconnect the old missing pong does not count")
    func pongStateResetsOnDrop() throws {
        var driver = try Driver(profile: .easemob)
        driver.loginOnline()
        driver.on(.timerFired(.keepAlive))
        driver.dropAndReconnect()
        #expect(driver.on(.timerFired(.pongTimeout)).isEmpty)
        #expect(driver.on(.timerFired(.keepAlive)).last == .scheduleTimer(.pongTimeout, afterMs: 20_000))
    }
}

/// ZIM and Easemob codes checked against `reference/openim-zim.md` §B2 and `reference/easemob.md` §3.3.
@Suite("Profile codes")
struct ProfileCodeTests {
    @Test("ZIM: not connected 6000009, unreachable 6000104, timeout 6000105, never 6000002 / 6000003")
    func zimCodes() throws {
        let rules = SDKProfile.zim.rules
        #expect(rules.notConnected == 6_000_009)
        #expect(rules.serverNotReachable == 6_000_104)
        #expect(rules.loginTimeout == 6_000_105)
        #expect(rules.offlineLoginNotLastUser == 6_000_124)
        #expect(rules.logoutCutBySessionEnd == 6_000_122)

        var driver = try Driver(profile: .zim)
        driver.on(.login(user: "alice", token: "t"))
        driver.on(.databaseOpened(epoch: 1, error: nil))
        let refused = driver.on(.socketClosed(generation: 1, sessionEndCode: nil, reason: ""))
        #expect(Driver.callbacks(in: refused) == [
            #"connectionStateChanged(state: "Disconnected", event: "ActiveLogin")"#, "loginCallback(errorCode: 6000104)",
        ])
        driver.loginOnline()
        driver.on(.socketClosed(generation: driver.generation, sessionEndCode: nil, reason: ""))
        let send = driver.on(.send(localID: "m1", to: "bob", text: "hi"))
        #expect(Driver.callbacks(in: send) == [#"messageSentCallback(messageId: null, errorCode: 6000009)"#])
    }

    @Test("Easemob and OpenIM have no offline-login code of their own: not logged in")
    func offlineLoginOtherUser() throws {
        #expect(SDKProfile.easemob.rules.offlineLoginNotLastUser == 201)
        #expect(SDKProfile.openim.rules.offlineLoginNotLastUser == 10101)
        #expect(SDKProfile.easemob.rules.logoutCutBySessionEnd == nil)
        #expect(SDKProfile.openim.rules.logoutCutBySessionEnd == nil)
    }
}
