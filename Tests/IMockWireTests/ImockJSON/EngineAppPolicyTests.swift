import Testing
@testable import IMockCore
import IMockWire

/// App policies through the engine and the imock dialect.
@Suite struct EngineAppPolicyTests {
    /// Through the session engine: the policy is read at each login, so a settings change applies
    /// to the next login without restarting anything.
    @Test func theEngineAppliesTheAppsCurrentPolicy() throws {
        let firstWins = LoginPolicy.easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins)))
        var h = try SessionHarness(settings: AppSettings(loginPolicy: firstWins), decider: AppLoginDecider())
        _ = try h.login(1, "alice", uuid: "first")
        let refused = try h.login(2, "alice", uuid: "second")
        #expect(frames(refused, to: 2).map(\.code) == [213])
        #expect(closes(refused).map(\.1) == [4213])

        var settings = try h.directory.app(h.app).settings
        settings.loginPolicy = .easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld)))
        try h.directory.updateSettings(settings, of: h.app)
        let kicking = try h.login(3, "alice", uuid: "third")
        #expect(frames(kicking, to: 1).map(\.code) == [206])
        #expect(h.engine.sessions(of: "alice", in: h.app).map(\.device.uuid) == ["third"])
    }
}
