import IMockCore
import Testing
@testable import IMockClient

/// Calls whose reply a drop, a kick or a token expiry cuts off complete at once (never hang),
/// and each renewal's reply answers its own call.
@Suite("Lost replies: renewToken and logout cut off")
struct LostRepliesTests {
    /// A logged-in, connected driver with renewal `r1` sent (request id 2) and unanswered.
    static func renewing(_ profile: SDKProfile) throws -> Driver {
        var driver = try Driver(profile: profile)
        driver.loginOnline()
        let sent = driver.on(.renewToken("t2", callID: "r1"))
        #expect(sent == [.sendRequest(generation: 1, .renewToken("2", token: "t2"))])
        return driver
    }

    static let dropCodes: [(SDKProfile, Int)] = [(.easemob, 300), (.openim, 10003), (.zim, 6_000_009)]

    @Test("E5: a drop completes the renewal in flight with the not-connected code; the old token stays", arguments: dropCodes)
    func renewalCutByDrop(profile: SDKProfile, code: Int) throws {
        var driver = try Self.renewing(profile)
        let drop = driver.on(.socketClosed(generation: 1, sessionEndCode: nil, reason: "lost"))
        #expect(Driver.canonical(in: drop).first == .renewTokenCompleted(callID: "r1", error: ClientError(code: code, message: "lost")))
        #expect(driver.machine.currentToken == "t1")
        // The reconnected session's own renewal is answered, not the cut-off one.
        driver.nowMs += 2000
        driver.on(.timerFired(.reconnect))
        driver.on(.socketOpened(generation: 2))
        driver.said(.reply(driver.lastSentID ?? "", .loginAccepted(resource: "r", tokenExpiresAt: nil, serverTime: 0)))
        driver.on(.renewToken("t3", callID: "r2"))
        let answered = driver.on(.serverSaid(generation: 2, .reply(driver.lastSentID ?? "", .tokenRenewed(tokenExpiresAt: 99))))
        #expect(Driver.canonical(in: answered) == [.renewTokenCompleted(callID: "r2", error: nil)])
        #expect(driver.machine.currentToken == "t3")
    }

    static let endCodes: [(SDKProfile, Int)] = [(.easemob, 201), (.openim, 10101), (.zim, 6_000_121)]

    @Test("E5 Z3 Z4: a kick or expiry completes the renewal in flight with the not-logged-in code", arguments: endCodes)
    func renewalCutBySessionEnd(profile: SDKProfile, code: Int) throws {
        for end in [ServerInput.end(.kicked(code: 206, reason: "r", by: nil)), .end(.tokenExpired)] {
            var driver = try Self.renewing(profile)
            let ended = driver.on(.serverSaid(generation: 1, end))
            let canonical = Driver.canonical(in: ended)
            #expect(canonical.first == .renewTokenCompleted(callID: "r1", error: ClientError(code: code, message: "session ended")))
            #expect(canonical.count == 2)
            guard case .sessionEnded? = canonical.last else {
                Issue.record("no session end after the renewal: \(canonical)")
                continue
            }
        }
    }

    @Test("E8: logout.ok completes a renewal still waiting, with the not-logged-in code")
    func renewalCutByLogout() throws {
        var driver = try Self.renewing(.easemob)
        driver.on(.logout(unbindDeviceToken: false))
        let done = driver.on(.serverSaid(generation: 1, .reply("3", .loggedOut)))
        #expect(Driver.callbacks(in: done) == [
            #"renewTokenCompletion(error: {"code":201,"message":"logged out"})"#, "logoutCompletion(error: null)",
        ])
    }

    @Test("E5: replies in reverse order answer their own calls (matched by request id)")
    func renewalsOutOfOrder() throws {
        var driver = try Self.renewing(.openim)
        #expect(driver.on(.renewToken("bad", callID: "r2")) == [.sendRequest(generation: 1, .renewToken("3", token: "bad"))])
        let second = driver.on(.serverSaid(generation: 1, .reply("3", .refused(ClientError(code: 104, message: "invalid"), field: "token"))))
        #expect(Driver.canonical(in: second) == [.renewTokenCompleted(callID: "r2", error: ClientError(code: 104, message: "invalid"))])
        let first = driver.on(.serverSaid(generation: 1, .reply("2", .tokenRenewed(tokenExpiresAt: nil))))
        #expect(Driver.canonical(in: first) == [.renewTokenCompleted(callID: "r1", error: nil)])
        #expect(driver.machine.currentToken == "t2")
        #expect(driver.on(.serverSaid(generation: 1, .reply("2", .tokenRenewed(tokenExpiresAt: nil)))).isEmpty)
    }

    static let logoutCutByKick: [(SDKProfile, [String])] = [
        (
            .easemob,
            [
                #"connectionStateDidChange(state: "disconnected")"#, "userAccountDidForcedToLogout(code: 217)",
                "logoutCompletion(error: null)",
            ]
        ),
        (.openim, ["onKickedOffline", "logoutSuccess"]),
        (
            .zim,
            [#"connectionStateChanged(state: "Disconnected", event: "KickedOut")"#, "logoutCallback(errorCode: 6000122)"]
        ),
    ]

    @Test("E8 C6 Z3: a logout waiting for its reply completes when a kick ends the session", arguments: logoutCutByKick)
    func logoutCutByKickFrame(profile: SDKProfile, expected: [String]) throws {
        for unbind in [false, true] {
            var driver = try Driver(profile: profile)
            driver.loginOnline()
            #expect(driver.on(.logout(unbindDeviceToken: unbind)) == [
                .sendRequest(generation: 1, .logout("2", unbindDeviceToken: unbind))
            ])
            let kicked = driver.on(.serverSaid(generation: 1, .end(.kicked(code: 217, reason: "r", by: nil))))
            #expect(Driver.callbacks(in: kicked) == expected)
            #expect(driver.machine.loginStatus == .logout)
            #expect(driver.on(.serverSaid(generation: 1, .reply("2", .loggedOut))).isEmpty)
        }
    }

    static let logoutCutByExpiry: [(SDKProfile, [String])] = [
        (.easemob, [#"connectionStateDidChange(state: "disconnected")"#, "tokenDidExpire(errorCode: 108)", "logoutCompletion(error: null)"]),
        (.openim, ["onUserTokenExpired", "logoutSuccess"]),
        (.zim, [#"connectionStateChanged(state: "Disconnected", event: "TokenExpired")"#, "logoutCallback(errorCode: 6000122)"]),
    ]

    @Test("E8 C8 Z4: a logout waiting for its reply completes when the token expires", arguments: logoutCutByExpiry)
    func logoutCutByExpiryFrame(profile: SDKProfile, expected: [String]) throws {
        var driver = try Driver(profile: profile)
        driver.loginOnline()
        driver.on(.logout(unbindDeviceToken: false))
        let expired = driver.on(.serverSaid(generation: 1, .end(.tokenExpired)))
        #expect(Driver.callbacks(in: expired) == expected)
    }

    @Test("C9: a kick close (4xxx) without its frame also completes a waiting unbinding logout")
    func logoutCutByKickClose() throws {
        var driver = try Driver(profile: .easemob)
        driver.loginOnline()
        driver.on(.logout(unbindDeviceToken: true))
        let closed = driver.on(.socketClosed(generation: 1, sessionEndCode: 206, reason: "other device"))
        #expect(Driver.canonical(in: closed) == [
            .sessionEnded(.kicked(code: 206, by: nil), wasConnected: true), .logoutCompleted(error: nil, loggedOut: true),
        ])
    }
}
