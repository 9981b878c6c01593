import IMockCore
import Testing
@testable import IMockClient

@Suite("State machine transitions")
struct StateMachineTransitionTests {
    @Test("E2 C1: login opens the database first, then the socket, and sends an explicit login")
    func loginSteps() throws {
        var driver = try Driver(profile: .easemob, syncTypes: [.contacts])
        #expect(driver.on(.login(user: "alice", token: "t1")) == [
            .scheduleTimer(.loginTimeout, afterMs: 30_000), .openDatabase(user: "alice", epoch: 1),
        ])
        #expect(driver.machine.loginStatus == .logging)
        let opened = driver.on(.databaseOpened(epoch: 1, error: nil))
        #expect(Driver.callbacks(in: opened) == [#"onDatabaseOpened(error: null, username: "alice")"#])
        #expect(Driver.others(in: opened) == [.openSocket(generation: 1)])
        let sent = driver.on(.socketOpened(generation: 1))
        #expect(sent == [.sendRequest(generation: 1, .login("1", Self.aliceLogin))])
    }

    /// The explicit login `loginSteps` sends (ClientWireTests checks its JSON bytes).
    static let aliceLogin = LoginRequest(
        appKey: "acme#chat", user: "alice", token: "t1", device: DeviceDescription(platform: .easemob(.ios), name: "phone", uuid: "dev1"),
        autoLogin: false, sync: [.contacts])

    @Test("C5: onDatabaseOpened fires on failure too and the login goes on")
    func databaseFailure() throws {
        var driver = try Driver(profile: .easemob)
        driver.on(.login(user: "alice", token: "t1"))
        let opened = driver.on(.databaseOpened(epoch: 1, error: ClientError(code: 1, message: "disk")))
        #expect(Driver.callbacks(in: opened) == [#"onDatabaseOpened(error: {"code":1,"message":"disk"}, username: "alice")"#])
        #expect(Driver.others(in: opened) == [.openSocket(generation: 1)])
    }

    @Test("E1 E3 E7 O3 O5: login.ok logs in and connects; status queries fire nothing")
    func loginOK() throws {
        var driver = try Driver(profile: .openim)
        driver.loginOnline()
        #expect(driver.machine.loginStatus == .logged)
        #expect(driver.machine.isLoggedIn && driver.machine.isConnected)
        #expect(driver.machine.currentUsername == "alice")
        #expect(driver.actions.contains(.scheduleTimer(.keepAlive, afterMs: 10_000)))
        #expect(driver.actions.contains(.cancelTimer(.loginTimeout)))
    }

    @Test("C7: 104 and 213 come back as the login completion error, logged out, no reconnect", arguments: [104, 213])
    func loginRefused(code: Int) throws {
        var driver = try Driver(profile: .easemob)
        driver.on(.login(user: "alice", token: "t1"))
        driver.on(.databaseOpened(epoch: 1, error: nil))
        driver.on(.socketOpened(generation: 1))
        let refused = driver.on(.serverSaid(generation: 1, .reply("1", .loginRefused(ClientError(code: code, message: "no")))))
        #expect(Driver.callbacks(in: refused) == [#"loginCompletion(username: "alice", error: {"code":\#(code),"message":"no"})"#])
        #expect(Driver.others(in: refused) == [.closeSocket(generation: 1, code: 1000), .cancelTimer(.loginTimeout), .closeDatabase(epoch: 1)])
        #expect(driver.machine.loginStatus == .logout)
        #expect(driver.on(.socketClosed(generation: 1, sessionEndCode: code, reason: "no")).isEmpty)
    }

    @Test("C2 C12: a drop keeps the user logged in, reconnects with autoLogin after the back-off")
    func dropAndReconnect() throws {
        var driver = try Driver(profile: .easemob)
        driver.loginOnline()
        let drop = driver.on(.socketClosed(generation: 1, sessionEndCode: nil, reason: ""))
        #expect(driver.machine.isLoggedIn && !driver.machine.isConnected)
        guard case .scheduleTimer(.reconnect, let delay) = drop.last else {
            Issue.record("no reconnect timer")
            return
        }
        #expect((1000..<2000).contains(delay))
        let retry = driver.on(.timerFired(.reconnect))
        #expect(Driver.others(in: retry) == [.scheduleTimer(.loginTimeout, afterMs: 30_000), .openSocket(generation: 2)])
        let sent = driver.on(.socketOpened(generation: 2))
        guard case .sendRequest(2, .login(_, let request)) = sent.first else {
            Issue.record("no login frame")
            return
        }
        #expect(request.autoLogin)
    }

    @Test("O2: OpenIM reports each failed attempt and walks its cycle")
    func openIMAttemptFailure() throws {
        var driver = try Driver(profile: .openim)
        driver.loginOnline()
        driver.on(.socketClosed(generation: 1, sessionEndCode: nil, reason: ""))
        driver.on(.timerFired(.reconnect))
        let failed = driver.on(.socketClosed(generation: 2, sessionEndCode: nil, reason: "refused"))
        #expect(Driver.callbacks(in: failed) == [#"onConnectFailure(code: 10003, message: "refused")"#])
        #expect(Driver.others(in: failed).last == .scheduleTimer(.reconnect, afterMs: 2000))
    }

    static let easemobKicks: [(Int, String)] = [
        (206, #"userAccountDidLoginFromOtherDevice(info: null)"#), (220, #"userAccountDidLoginFromOtherDevice(info: null)"#),
        (207, "userAccountDidRemoveFromServer"), (305, "userDidForbidByServer"),
        (202, "userAccountDidForcedToLogout(code: 202)"), (214, "userAccountDidForcedToLogout(code: 214)"),
        (216, "userAccountDidForcedToLogout(code: 216)"), (217, "userAccountDidForcedToLogout(code: 217)"),
        (8, "userAccountDidForcedToLogout(code: 8)"), (108, "tokenDidExpire(errorCode: 108)"),
    ]

    @Test("C6 C9 E13 E14 E15: each kick code maps to its callback and never reconnects", arguments: easemobKicks)
    func kickCodes(code: Int, expected: String) throws {
        var driver = try Driver(profile: .easemob)
        driver.loginOnline()
        let kicked = driver.on(.serverSaid(generation: 1, .end(.kicked(code: code, reason: "r", by: nil))))
        #expect(Driver.callbacks(in: kicked) == [#"connectionStateDidChange(state: "disconnected")"#, expected])
        #expect(!kicked.contains { if case .scheduleTimer = $0 { true } else { false } })
        #expect(driver.machine.loginStatus == .logout)
        #expect(driver.on(.socketClosed(generation: 1, sessionEndCode: code, reason: "r")).isEmpty)
    }

    @Test("C9: a close that ends the session, without the frame before it, still ends it without reconnecting")
    func closeCodeOnly() throws {
        var driver = try Driver(profile: .openim)
        driver.loginOnline()
        let closed = driver.on(.socketClosed(generation: 1, sessionEndCode: 2002, reason: "kicked"))
        #expect(Driver.callbacks(in: closed) == ["onKickedOffline"])
        #expect(Driver.canonical(in: closed) == [.sessionEnded(.kicked(code: 2002, by: nil), wasConnected: true)])
        #expect(!closed.contains { if case .scheduleTimer = $0 { true } else { false } })
    }

    @Test("O6: a reconnect refused with 104 ends with onUserTokenInvalid, no further attempt")
    func reconnectTokenInvalid() throws {
        var driver = try Driver(profile: .openim)
        driver.loginOnline()
        driver.on(.socketClosed(generation: 1, sessionEndCode: nil, reason: ""))
        driver.on(.timerFired(.reconnect))
        driver.on(.socketOpened(generation: 2))
        let refused = driver.on(.serverSaid(generation: 2, .reply(driver.lastSentID ?? "", .loginRefused(ClientError(code: 104, message: "revoked")))))
        #expect(Driver.callbacks(in: refused) == [#"onConnectFailure(code: 104, message: "revoked")"#, #"onUserTokenInvalid(message: "revoked")"#])
        #expect(driver.machine.loginStatus == .logout)
    }

    @Test("O4: a second login while logging is refused (Easemob 200) or joined (OpenIM)")
    func secondLogin() throws {
        var easemob = try Driver(profile: .easemob)
        easemob.on(.login(user: "alice", token: "t1"))
        let refused = easemob.on(.login(user: "alice", token: "t1"))
        #expect(Driver.callbacks(in: refused) == [#"loginCompletion(username: "alice", error: {"code":200,"message":"a login is in progress"})"#])
        #expect(easemob.machine.loginStatus == .logging)

        var openim = try Driver(profile: .openim)
        openim.on(.login(user: "alice", token: "t1"))
        #expect(openim.on(.login(user: "alice", token: "t1")).isEmpty)
        openim.on(.databaseOpened(epoch: 1, error: nil))
        openim.on(.socketOpened(generation: 1))
        let done = openim.on(.serverSaid(generation: 1, .reply("1", .loginAccepted(resource: "r", tokenExpiresAt: nil, serverTime: 0))))
        #expect(Driver.callbacks(in: done) == ["loginSuccess", "loginSuccess", "onConnectSuccess"])
    }

    @Test(
        "E9 O4: a login while logged in is refused: same user / other user",
        arguments: [(SDKProfile.easemob, "alice", 200), (.easemob, "bob", 218), (.openim, "alice", 10102), (.openim, "bob", 10102)])
    func loginWhileLogged(profile: SDKProfile, user: String, code: Int) throws {
        var driver = try Driver(profile: profile)
        driver.loginOnline()
        let refused = driver.on(.login(user: user, token: "t"))
        #expect(Driver.canonical(in: refused).count == 1)
        guard case .loginCompleted(user, let error?) = Driver.canonical(in: refused).first else {
            Issue.record("no refusal")
            return
        }
        #expect(error.code == code)
        #expect(driver.machine.currentUsername == "alice")
    }

    @Test("E8: a failed unbind (212) leaves the user logged in; logout(NO) then logs out")
    func logoutUnbindFails() throws {
        var driver = try Driver(profile: .easemob)
        driver.loginOnline()
        let asked = driver.on(.logout(unbindDeviceToken: true))
        #expect(asked == [.sendRequest(generation: 1, .logout("2", unbindDeviceToken: true))])
        let failed = driver.on(.serverSaid(generation: 1, .reply("2", .refused(ClientError(code: 212, message: "unbind failed"), field: nil))))
        #expect(Driver.callbacks(in: failed) == [#"logoutCompletion(error: {"code":212,"message":"unbind failed"})"#])
        #expect(driver.machine.isLoggedIn && driver.machine.isConnected)
        driver.on(.logout(unbindDeviceToken: false))
        let done = driver.on(.serverSaid(generation: 1, .reply("3", .loggedOut)))
        #expect(Driver.callbacks(in: done) == ["logoutCompletion(error: null)"])
        #expect(Driver.others(in: done).contains(.closeDatabase(epoch: 1)))
        #expect(driver.machine.loginStatus == .logout)
    }

    @Test("E8: without a connection unbinding fails; a plain logout is local")
    func logoutOffline() throws {
        var driver = try Driver(profile: .easemob)
        driver.loginOnline()
        driver.on(.socketClosed(generation: 1, sessionEndCode: nil, reason: ""))
        let unbind = driver.on(.logout(unbindDeviceToken: true))
        #expect(Driver.canonical(in: unbind) == [.logoutCompleted(error: ClientError(code: 300, message: "unbinding the device token needs the server"), loggedOut: false)])
        #expect(driver.machine.isLoggedIn)
        let plain = driver.on(.logout(unbindDeviceToken: false))
        #expect(Driver.callbacks(in: plain) == ["logoutCompletion(error: null)"])
        #expect(plain.contains(.cancelTimer(.reconnect)))
        #expect(driver.machine.loginStatus == .logout)
    }

    @Test("E5: a refused renewal reports its error and keeps the old token")
    func renewRefused() throws {
        var driver = try Driver(profile: .easemob)
        driver.loginOnline()
        driver.on(.renewToken("bad"))
        let refused = driver.on(.serverSaid(generation: 1, .reply("2", .refused(ClientError(code: 104, message: "invalid token"), field: "token"))))
        #expect(Driver.callbacks(in: refused) == [#"renewTokenCompletion(error: {"code":104,"message":"invalid token"})"#])
        #expect(driver.machine.currentToken == "t1")
    }

    @Test("Z3 Z4: after a kick or an expiry ZIM calls fail with 6000121")
    func zimNotLoggedIn() throws {
        for end in [ServerInput.end(.kicked(code: 206, reason: "r", by: nil)), .end(.tokenExpired)] {
            var driver = try Driver(profile: .zim)
            driver.loginOnline()
            driver.said(end)
            let send = driver.on(.send(localID: "m1", to: "bob", text: "hi"))
            #expect(Driver.callbacks(in: send) == [#"messageSentCallback(messageId: null, errorCode: 6000121)"#])
            let renew = driver.on(.renewToken("t2"))
            #expect(Driver.callbacks(in: renew) == ["renewTokenCallback(errorCode: 6000121)"])
        }
    }

    @Test("Z5: offline login succeeds at once and stays Connecting until the server answers")
    func zimOfflineLogin() throws {
        var driver = try Driver(profile: .zim, lastOnlineUser: "alice")
        driver.on(.login(user: "alice", token: "t1", offline: true))
        let opened = driver.on(.databaseOpened(epoch: 1, error: nil))
        #expect(Driver.callbacks(in: opened) == ["loginCallback(errorCode: 0)", #"connectionStateChanged(state: "Connecting", event: "ActiveLogin")"#])
        #expect(driver.machine.isLoggedIn && !driver.machine.isConnected)
        let failed = driver.on(.socketClosed(generation: 1, sessionEndCode: nil, reason: "offline"))
        #expect(Driver.callbacks(in: failed).isEmpty)
        driver.on(.timerFired(.reconnect))
        driver.on(.socketOpened(generation: 2))
        let up = driver.on(.serverSaid(generation: 2, .reply(driver.lastSentID ?? "", .loginAccepted(resource: "r", tokenExpiresAt: nil, serverTime: 0))))
        #expect(Driver.callbacks(in: up) == [#"connectionStateChanged(state: "Connected", event: "Success")"#])
    }

    @Test("Z5: offline login is only for the last online user (6000124)")
    func zimOfflineLoginOtherUser() throws {
        var driver = try Driver(profile: .zim, lastOnlineUser: "alice")
        let refused = driver.on(.login(user: "bob", token: "t", offline: true))
        #expect(Driver.callbacks(in: refused) == ["loginCallback(errorCode: 6000124)"])
        #expect(driver.machine.loginStatus == .logout)
    }

    @Test("C5 Z: a login timeout while the database opens reports both, ZIM says LoginTimeout")
    func loginTimeout() throws {
        var driver = try Driver(profile: .zim)
        driver.on(.login(user: "alice", token: "t"))
        let timedOut = driver.on(.timerFired(.loginTimeout))
        #expect(Driver.callbacks(in: timedOut) == [
            #"connectionStateChanged(state: "Disconnected", event: "LoginTimeout")"#, "loginCallback(errorCode: 6000105)",
        ])
        #expect(Driver.canonical(in: timedOut).first == .databaseOpened(user: "alice", error: ClientError(code: 6_000_105, message: "login timed out")))
        #expect(driver.on(.databaseOpened(epoch: 1, error: nil)).isEmpty)
    }

    @Test("Z2: giving up after the last attempt ends with Disconnected + LoginInterrupted")
    func zimGivesUp() throws {
        var driver = try Driver(profile: .zim, reconnect: ReconnectPolicy(steps: [.init(throughAttempt: nil, minMs: 100, maxMs: 100)], maxAttempts: 1))
        driver.loginOnline()
        driver.on(.socketClosed(generation: 1, sessionEndCode: nil, reason: ""))
        driver.on(.timerFired(.reconnect))
        let gaveUp = driver.on(.socketClosed(generation: 2, sessionEndCode: nil, reason: ""))
        #expect(Driver.callbacks(in: gaveUp) == [#"connectionStateChanged(state: "Disconnected", event: "LoginInterrupted")"#])
        #expect(driver.machine.lastEndReason == .reconnectGaveUp)
    }

    @Test("a recorded session's waits: the first reconnects wait them in order, whatever their attempt, then the bands")
    func recordedWaits() throws {
        var policy = ReconnectPolicy.easemob
        policy.waits = [1389, 70_000]
        var driver = try Driver(profile: .easemob, reconnect: policy)
        driver.loginOnline()
        var delays: [Int64] = []
        for generation in 1...3 {
            let dropped = driver.on(.socketClosed(generation: UInt64(generation), sessionEndCode: nil, reason: ""))
            guard case .scheduleTimer(.reconnect, let delay)? = dropped.last else {
                Issue.record("no reconnect: \(dropped)")
                return
            }
            delays.append(delay)
            driver.on(.timerFired(.reconnect))
        }
        #expect(delays.prefix(2) == [1389, 70_000])
        #expect((1000..<2000).contains(delays[2]), "then the profile's band: \(delays)")
    }

    @Test("X2 O8: frames and closes of an old socket never reach the next account")
    func staleGeneration() throws {
        var driver = try Driver(profile: .easemob)
        driver.loginOnline()
        driver.on(.logout(unbindDeviceToken: false))
        driver.on(.serverSaid(generation: 1, .reply("2", .loggedOut)))
        driver.on(.login(user: "bob", token: "t"))
        driver.on(.databaseOpened(epoch: 2, error: nil))
        #expect(driver.on(.serverSaid(generation: 1, .end(.kicked(code: 217, reason: "old", by: nil)))).isEmpty)
        #expect(driver.on(.socketClosed(generation: 1, sessionEndCode: 217, reason: "old")).isEmpty)
        #expect(driver.on(.databaseOpened(epoch: 1, error: nil)).isEmpty)
        #expect(driver.machine.loginStatus == .logging)
    }

    @Test("C10: offline messages between start and finish are stored and acked; none → no callbacks")
    func offlineSync() throws {
        var driver = try Driver(profile: .easemob)
        driver.loginOnline()
        let message = ChatMessage(messageId: "17", from: "bob", to: "alice", text: "hi", timestamp: 1)
        driver.said(.push(.offlineStart(count: 1)))
        let received = driver.on(.serverSaid(generation: 1, .push(.message(message))))
        #expect(received.first == .storeMessage(message, offline: true))
        #expect(driver.on(.messageStored(messageId: "17")) == [.sendRequest(generation: 1, .ack("2", messageId: "17"))])
        driver.said(.push(.offlineFinish))
        let live = driver.on(.serverSaid(generation: 1, .push(.message(message))))
        #expect(live.first == .storeMessage(message, offline: false))
        #expect(driver.callbacks().suffix(4) == [
            "onOfflineMessageSyncStart", #"messagesDidReceive(messageId: "17", from: "bob", text: "hi")"#,
            "onOfflineMessageSyncFinish", #"messagesDidReceive(messageId: "17", from: "bob", text: "hi")"#,
        ])
    }

    @Test("E4 C11: data sync start/finish per type; a drop finishes the open one with an error")
    func dataSync() throws {
        var driver = try Driver(profile: .easemob, syncTypes: [.contacts, .joinedGroups])
        driver.loginOnline()
        driver.said(.push(.syncStart(.contacts)))
        driver.said(.push(.syncFinish(.contacts, error: nil)))
        driver.said(.push(.syncStart(.joinedGroups)))
        let drop = driver.on(.socketClosed(generation: 1, sessionEndCode: nil, reason: "lost"))
        #expect(driver.callbacks().suffix(5) == [
            #"syncDataStart(type: "contacts")"#, #"syncDataFinished(error: null, type: "contacts")"#,
            #"syncDataStart(type: "joinedGroups")"#, #"syncDataFinished(error: {"code":300,"message":"lost"}, type: "joinedGroups")"#,
            #"connectionStateDidChange(state: "disconnected")"#,
        ])
        #expect(!drop.isEmpty)
    }

    @Test("keep-alive pings while connected; malformed server text is reported and ignored")
    func keepAliveAndMalformed() throws {
        var driver = try Driver(profile: .easemob)
        driver.loginOnline()
        #expect(driver.on(.timerFired(.keepAlive)) == [
            .sendRequest(generation: 1, .ping(nil)), .scheduleTimer(.keepAlive, afterMs: 10_000),
            .scheduleTimer(.pongTimeout, afterMs: 20_000),
        ])
        #expect(driver.on(.messageUnreadable(generation: 1, reason: "dance")) == [.ignoredMessage(reason: "dance")])
        #expect(driver.machine.isConnected)
    }

    @Test("E11: extension info over 1024 characters is refused by the options")
    func extensionTooLong() {
        #expect(throws: ClientOptionsError.invalidDevice(.extensionInfoTooLong(1025))) {
            try ClientOptions(
                appKey: "a#b", device: DeviceDescription(platform: .easemob(.ios), uuid: "u", extensionInfo: String(repeating: "x", count: 1025)))
        }
    }
}
