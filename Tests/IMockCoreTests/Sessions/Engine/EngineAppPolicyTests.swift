import IMockTestSupport
import Testing

@testable import IMockCore

/// App policies through the engine.
@Suite struct EngineAppPolicyTests {
    /// The policy is read at each login, so a settings change applies to the next login without
    /// restarting anything.
    @Test func theEngineAppliesTheAppsCurrentPolicy() throws {
        let firstWins = LoginPolicy.easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins)))
        var h = try EngineHarness(settings: AppSettings(loginPolicy: firstWins), decider: AppLoginDecider())
        _ = try h.login(1, "alice", uuid: "first")
        let refused = try h.login(2, "alice", uuid: "second")
        #expect(ends(refused).map(\.end.cause) == [.loginRefused(RequestTag("L"), .deviceRefused(.boundToAnotherDevice))])

        var settings = try h.directory.app(h.app).settings
        settings.loginPolicy = .easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld)))
        try h.directory.updateSettings(settings, of: h.app)
        let kicking = try h.login(3, "alice", uuid: "third")
        #expect(ends(kicking).map(\.connection) == [ConnectionID(1)])
        #expect(kickCodes(kicking) == [KickCode.loggedInOnAnotherDevice.rawValue])
        #expect(h.engine.sessions(of: "alice", in: h.app).map(\.device.uuid) == ["third"])
    }
}
