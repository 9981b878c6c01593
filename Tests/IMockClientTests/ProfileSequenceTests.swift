import IMockCore
import Testing
@testable import IMockClient

/// The done-when sequences of issue 6, per profile, as the seeds describe them.
@Suite("Profile callback sequences")
struct ProfileSequenceTests {
    static let dropThenKick: [(SDKProfile, Int, [String])] = [
        (
            .easemob, 206,
            [
                #"onDatabaseOpened(error: null, username: "alice")"#, #"loginCompletion(username: "alice", error: null)"#,
                #"connectionStateDidChange(state: "connected")"#, #"connectionStateDidChange(state: "disconnected")"#,
                #"connectionStateDidChange(state: "connected")"#, #"connectionStateDidChange(state: "disconnected")"#,
                #"userAccountDidLoginFromOtherDevice(info: {"deviceName":"Pixel","extensionInfo":"hello"})"#,
            ]
        ),
        (
            .openim, 2002,
            ["onConnecting", "loginSuccess", "onConnectSuccess", "onConnecting", "onConnectSuccess", "onKickedOffline"]
        ),
        (
            .zim, 206,
            [
                #"connectionStateChanged(state: "Connecting", event: "ActiveLogin")"#, "loginCallback(errorCode: 0)",
                #"connectionStateChanged(state: "Connected", event: "Success")"#,
                #"connectionStateChanged(state: "Reconnecting", event: "LoginInterrupted")"#,
                #"connectionStateChanged(state: "Connected", event: "Success")"#,
                #"connectionStateChanged(state: "Disconnected", event: "KickedOut")"#,
            ]
        ),
    ]

    @Test("C1 C2 C6 E12 O2 O7 Z1 Z2 Z3: login → drop → reconnect → kick", arguments: dropThenKick)
    func loginDropReconnectKick(profile: SDKProfile, code: Int, expected: [String]) throws {
        var driver = try Driver(profile: profile)
        driver.loginOnline()
        driver.dropAndReconnect()
        driver.said(.end(.kicked(code: code, reason: "logged in on another device", by: KickedBy(deviceName: "Pixel", extensionInfo: "hello"))))
        driver.on(.socketClosed(generation: driver.generation, sessionEndCode: code, reason: "x"))
        #expect(driver.callbacks() == expected)
        #expect(driver.machine.loginStatus == .logout)
        let scheduledAfterKick = driver.actions.last { if case .scheduleTimer(.reconnect, _) = $0 { true } else { false } }
        #expect(scheduledAfterKick != nil)  // only the one of the drop
        #expect(driver.actions.filter { if case .openSocket = $0 { true } else { false } }.count == 2)
    }

    static let tokenLife: [(SDKProfile, [String])] = [
        (
            .easemob,
            [
                #"onDatabaseOpened(error: null, username: "alice")"#, #"loginCompletion(username: "alice", error: null)"#,
                #"connectionStateDidChange(state: "connected")"#, "tokenWillExpire(errorCode: 109)",
                "renewTokenCompletion(error: null)", #"connectionStateDidChange(state: "disconnected")"#,
                "tokenDidExpire(errorCode: 108)",
            ]
        ),
        (.openim, ["onConnecting", "loginSuccess", "onConnectSuccess", "renewTokenSuccess", "onUserTokenExpired"]),
        (
            .zim,
            [
                #"connectionStateChanged(state: "Connecting", event: "ActiveLogin")"#, "loginCallback(errorCode: 0)",
                #"connectionStateChanged(state: "Connected", event: "Success")"#, "onTokenWillExpire(second: 20)",
                "renewTokenCallback(errorCode: 0)", #"connectionStateChanged(state: "Disconnected", event: "TokenExpired")"#,
            ]
        ),
    ]

    @Test("E5 E6 C8 O6 Z4: login → token warning → renew → expiry", arguments: tokenLife)
    func tokenWarningRenewExpiry(profile: SDKProfile, expected: [String]) throws {
        var driver = try Driver(profile: profile)
        let start = driver.nowMs
        driver.loginOnline(expiresAt: start + 100_000)
        driver.nowMs = start + 80_000
        driver.said(.push(.tokenWillExpire(expiresAt: start + 100_000)))
        driver.on(.renewToken("t2"))
        driver.said(.reply(driver.lastSentID ?? "", .tokenRenewed(tokenExpiresAt: start + 200_000)))
        #expect(driver.machine.tokenExpiresAt == start + 200_000)
        #expect(driver.machine.currentToken == "t2")
        driver.nowMs = start + 200_000
        driver.said(.end(.tokenExpired))
        driver.on(.socketClosed(generation: driver.generation, sessionEndCode: 108, reason: "token expired"))
        #expect(driver.callbacks() == expected)
        #expect(driver.machine.loginStatus == .logout)
        #expect(!driver.actions.contains { if case .scheduleTimer(.reconnect, _) = $0 { true } else { false } })
    }

    @Test("every record carries device, profile and the event's clock time")
    func recordFields() throws {
        var driver = try Driver(profile: .zim)
        driver.nowMs = 42
        let actions = driver.on(.login(user: "alice", token: "t"))
        #expect(actions.isEmpty == false)
        driver.nowMs = 50
        let opened = driver.on(.databaseOpened(epoch: driver.machine.loginEpoch, error: nil))
        guard case .emit(let attempt) = opened.first(where: { if case .emit(let e) = $0 { !e.records.isEmpty } else { false } }) else {
            Issue.record("no callback")
            return
        }
        #expect(attempt.records == [
            CallbackRecord(
                device: "dev1", profile: .zim, name: "connectionStateChanged",
                arguments: [CallbackArgument("state", "Connecting"), CallbackArgument("event", "ActiveLogin")], timeMs: 50)
        ])
    }
}
