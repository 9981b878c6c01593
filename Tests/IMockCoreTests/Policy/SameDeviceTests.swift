import Testing
@testable import IMockCore

/// The same device (UUID + resource) never kicks itself, under every policy.
@Suite("Same-device reconnect")
struct SameDeviceTests {
    static let easemobPolicies: [EasemobLoginPolicy] = [
        EasemobLoginPolicy(),
        EasemobLoginPolicy(keepCurrentDevice: true),
        EasemobLoginPolicy(mode: .multiDevice((try? EasemobDeviceLimits(defaultLimit: 1)) ?? .standard), keepCurrentDevice: true),
        EasemobLoginPolicy(mode: .singleDevice(.newKicksOld)),
        EasemobLoginPolicy(mode: .singleDevice(.newKicksOld), keepCurrentDevice: true),
        EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins)),
        EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins), keepCurrentDevice: true),
    ]

    /// Same UUID, resource and token: the old session is replaced silently (also as auto-login).
    @Test(arguments: easemobPolicies, [false, true])
    func easemobSameTokenReplaces(_ policy: EasemobLoginPolicy, isAutoLogin: Bool) throws {
        let old = Fixture.session(4, try Fixture.easemob(.ios, uuid: "dev", at: 100, token: 9))
        let device = try Fixture.easemob(.ios, uuid: "dev", at: 900, token: 9)
        let decision = try LoginPolicyEngine(policy: .easemob(policy))
            .decide(LoginAttempt(device: device, isAutoLogin: isAutoLogin), liveSessions: [old])
        #expect(decision == .accept(resource: "ios_dev", replacing: SessionID(rawValue: 4)))
    }

    /// A full group (limit 2) does not make the reconnecting device kick anyone.
    @Test func fullGroupReconnectReplacesWithoutKicking() throws {
        let policy = EasemobLoginPolicy(mode: .multiDevice(try EasemobDeviceLimits(defaultLimit: 2)))
        let live = [
            Fixture.session(1, try Fixture.easemob(.android, uuid: "a", at: 100)),
            Fixture.session(2, try Fixture.easemob(.ios, uuid: "dev", at: 200, token: 9)),
        ]
        let device = try Fixture.easemob(.ios, uuid: "dev", at: 900, token: 9)
        let decision = try LoginPolicyEngine(policy: .easemob(policy)).decide(LoginAttempt(device: device), liveSessions: live)
        #expect(decision == Expected.replace(2).decision(for: device))
    }

    /// Same device, new token (a reconnect after a renewal, an app restart): the same device
    /// whatever the token, so the old session is replaced silently under every policy — no 206,
    /// no refusal by "first device wins" or keep-current-device, manual or auto-login.
    @Test(arguments: easemobPolicies, [false, true])
    func easemobSameDeviceNewTokenReplaces(_ policy: EasemobLoginPolicy, isAutoLogin: Bool) throws {
        let old = Fixture.session(4, try Fixture.easemob(.web, uuid: "dev", at: 100, token: 9))
        let device = try Fixture.easemob(.web, uuid: "dev", at: 900, token: 10)
        let decision = try LoginPolicyEngine(policy: .easemob(policy))
            .decide(LoginAttempt(device: device, isAutoLogin: isAutoLogin), liveSessions: [old])
        #expect(decision == Expected.replace(4).decision(for: device))
    }

    /// Another UUID claiming a live resource is another device: kicked in multi-device mode,
    /// refused by "first device wins" and by keep-current-device on auto-login.
    @Test(arguments: [
        (EasemobLoginPolicy(), false, Expected.kick([4])),
        (EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins)), false, .refuse(.boundToAnotherDevice)),
        (EasemobLoginPolicy(keepCurrentDevice: true), true, .refuse(.tooManyDevices)),
        (EasemobLoginPolicy(mode: .singleDevice(.newKicksOld), keepCurrentDevice: true), true, .refuse(.deviceChanged)),
    ])
    func resourceTakenByAnotherUUID(_ policy: EasemobLoginPolicy, isAutoLogin: Bool, expected: Expected) throws {
        let old = Fixture.session(4, try Fixture.easemob(.web, uuid: "one", at: 100, resource: "web_shared"))
        let device = try Fixture.easemob(.web, uuid: "two", at: 900, resource: "web_shared")
        let decision = try LoginPolicyEngine(policy: .easemob(policy))
            .decide(LoginAttempt(device: device, isAutoLogin: isAutoLogin), liveSessions: [old])
        #expect(decision == expected.decision(for: device))
    }

    /// OpenIM: the same device and token is replaced; every other connection is judged as usual.
    @Test(arguments: OpenIMMultiLoginPolicy.allCases)
    func openIMSameTokenReplaces(_ policy: OpenIMMultiLoginPolicy) throws {
        let old = Fixture.session(3, try Fixture.openIM(.android, uuid: "dev", at: 100, token: 5))
        let device = try Fixture.openIM(.android, uuid: "dev", at: 900, token: 5)
        let decision = try LoginPolicyEngine(policy: .openIM(policy)).decide(LoginAttempt(device: device), liveSessions: [old])
        #expect(decision == .accept(resource: "android_dev", replacing: SessionID(rawValue: 3)))
    }

    /// OpenIM policy 1: reconnect replaces itself and still kicks another Android token.
    @Test func openIMReplaceAndKick() throws {
        let live = [
            Fixture.session(3, try Fixture.openIM(.android, uuid: "dev", at: 100, token: 5)),
            Fixture.session(6, try Fixture.openIM(.android, uuid: "other", at: 200, token: 6)),
        ]
        let device = try Fixture.openIM(.android, uuid: "dev", at: 900, token: 5)
        let decision = try LoginPolicyEngine(policy: .openIM(.allLoginButSameTermKick)).decide(LoginAttempt(device: device), liveSessions: live)
        #expect(decision == Expected.replaceAndKick(3, [6]).decision(for: device))
    }
}

/// OpenIM never kicks a connection that uses the newcomer's token (gateway
/// `multiTerminalLoginChecker`): under policy 1 another device of the same platform with the
/// same token stays.
@Suite("OpenIM: the newcomer's token is never kicked")
struct OpenIMSameTokenTests {
    @Test(arguments: [OpenIMMultiLoginPolicy.allLoginButSameTermKick, .allLoginButSameClassKick, .pcAndOther])
    func sameTokenOtherDeviceStays(_ policy: OpenIMMultiLoginPolicy) throws {
        let old = Fixture.session(3, try Fixture.openIM(.android, uuid: "phone", at: 100, token: 5))
        let device = try Fixture.openIM(.android, uuid: "tablet", at: 900, token: 5)
        let decision = try LoginPolicyEngine(policy: .openIM(policy)).decide(LoginAttempt(device: device), liveSessions: [old])
        #expect(decision == .accept(resource: "android_tablet", replacing: nil))
    }
}
