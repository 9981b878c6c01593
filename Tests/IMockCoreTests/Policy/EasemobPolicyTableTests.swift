import Testing
@testable import IMockCore

/// One login against a fixed set of live sessions, Easemob policies.
@Suite("Easemob policy table")
struct EasemobPolicyTableTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let policy: EasemobLoginPolicy
        /// (session id, platform, uuid, login time, token)
        let live: [(UInt64, EasemobPlatform, String, Int64, UInt64)]
        let new: (EasemobPlatform, String, Int64, UInt64)
        let isAutoLogin: Bool
        let lastLoginDevice: DeviceIdentity?
        let expected: Expected
        var testDescription: String { "\(name) → \(expected)" }

        init(
            _ name: String, _ policy: EasemobLoginPolicy,
            live: [(UInt64, EasemobPlatform, String, Int64, UInt64)],
            new: (EasemobPlatform, String, Int64, UInt64), auto: Bool = false,
            last: DeviceIdentity? = nil, _ expected: Expected
        ) {
            self.name = name
            self.policy = policy
            self.live = live
            self.new = new
            self.isAutoLogin = auto
            self.lastLoginDevice = last
            self.expected = expected
        }
    }

    static let multi = EasemobLoginPolicy()
    static let multiKeep = EasemobLoginPolicy(keepCurrentDevice: true)
    static let custom = EasemobLoginPolicy(
        mode: .multiDevice((try? EasemobDeviceLimits(overrides: [.custom(7): 2, .custom(9): 0, .web: 3])) ?? .standard))
    static let single = EasemobLoginPolicy(mode: .singleDevice(.newKicksOld))
    static let singleKeep = EasemobLoginPolicy(mode: .singleDevice(.newKicksOld), keepCurrentDevice: true)
    static let first = EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins))
    static let firstKeep = EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins), keepCurrentDevice: true)

    static let fourMobile: [(UInt64, EasemobPlatform, String, Int64, UInt64)] = [
        (1, .ios, "a", 100, 1), (2, .android, "b", 200, 1), (3, .ios, "c", 300, 1), (4, .android, "d", 400, 1),
    ]

    static let cases: [Case] = [
        // Multi-device, default 4.
        Case("mobile full, 5th mobile kicks earliest", multi, live: fourMobile, new: (.android, "n", 500, 1), .kick([1])),
        Case("mobile full, web login: groups never kick", multi, live: fourMobile, new: (.web, "n", 500, 1), .accept),
        Case("mobile full, desktop login", multi, live: fourMobile, new: (.macos, "n", 500, 1), .accept),
        Case("mobile full, linux login", multi, live: fourMobile, new: (.linux, "n", 500, 1), .accept),
        Case("mobile full, custom 3 login", multi, live: fourMobile, new: (.custom(3), "n", 500, 1), .accept),
        Case("3 mobile, 4th fits", multi, live: Array(fourMobile.prefix(3)), new: (.ios, "n", 500, 1), .accept),
        Case("desktop full of windows+macos, kicks earliest", multi,
             live: [(1, .macos, "a", 50, 1), (2, .windows, "b", 10, 1), (3, .macos, "c", 30, 1), (4, .windows, "d", 40, 1), (5, .ios, "e", 1, 1)],
             new: (.windows, "n", 60, 1), .kick([2])),
        Case("live given out of order: earliest by time", multi,
             live: [(4, .android, "d", 400, 1), (2, .android, "b", 200, 1), (1, .ios, "a", 250, 1), (3, .ios, "c", 300, 1)],
             new: (.ios, "n", 500, 1), .kick([2])),
        Case("equal login times: lowest session id", multi,
             live: [(9, .web, "a", 100, 1), (3, .web, "b", 100, 1), (7, .web, "c", 100, 1), (5, .web, "d", 100, 1)],
             new: (.web, "n", 500, 1), .kick([3])),
        Case("earlier time beats lower id", multi,
             live: [(1, .web, "a", 200, 1), (2, .web, "b", 200, 1), (8, .web, "c", 100, 1), (4, .web, "d", 300, 1)],
             new: (.web, "n", 500, 1), .kick([8])),
        Case("over limit by more (limit lowered): kicks until it fits, earliest first", custom,
             live: [(6, .web, "a", 100, 1), (2, .web, "b", 100, 1), (3, .web, "c", 50, 1), (4, .web, "d", 400, 1), (5, .web, "e", 500, 1)],
             new: (.web, "n", 600, 1), .kick([3, 2, 6])),
        // Per custom platform.
        Case("custom 7 limit 2: third custom 7 kicks earliest custom 7", custom,
             live: [(1, .custom(8), "a", 10, 1), (2, .custom(7), "b", 20, 1), (3, .custom(7), "c", 30, 1), (4, .custom(6), "d", 5, 1)],
             new: (.custom(7), "n", 40, 1), .kick([2])),
        Case("custom 8 default 4: second custom 8 fits", custom,
             live: [(1, .custom(8), "a", 10, 1), (2, .custom(7), "b", 20, 1), (3, .custom(7), "c", 30, 1)],
             new: (.custom(8), "n", 40, 1), .accept),
        Case("custom 9 limit 0: refused 214", custom, live: [], new: (.custom(9), "n", 40, 1), .refuse(.tooManyDevices)),
        Case("web limit 3 override", custom,
             live: [(1, .web, "a", 10, 1), (2, .web, "b", 20, 1), (3, .web, "c", 30, 1), (4, .ios, "d", 1, 1)],
             new: (.web, "n", 40, 1), .kick([1])),
        // Keep-current-device, multi-device.
        Case("keep: auto-login over limit refused 214", multiKeep, live: fourMobile, new: (.ios, "n", 500, 1), auto: true, .refuse(.tooManyDevices)),
        Case("keep: manual login over limit still kicks", multiKeep, live: fourMobile, new: (.ios, "n", 500, 1), .kick([1])),
        Case("keep: auto-login under limit accepted", multiKeep, live: Array(fourMobile.prefix(3)), new: (.ios, "n", 500, 1), auto: true, .accept),
        Case("keep: auto-login in another group accepted", multiKeep, live: fourMobile, new: (.web, "n", 500, 1), auto: true, .accept),
        Case("no keep: auto-login over limit kicks", multi, live: fourMobile, new: (.ios, "n", 500, 1), auto: true, .kick([1])),
        // Single-device, new kicks old.
        Case("single: kicks the old device across groups", single, live: [(1, .web, "a", 10, 1)], new: (.ios, "n", 20, 1), .kick([1])),
        Case("single: first login accepted", single, live: [], new: (.ios, "n", 20, 1), .accept),
        Case("single: no keep, auto-login kicks", single, live: [(1, .web, "a", 10, 1)], new: (.ios, "n", 20, 1), auto: true, .kick([1])),
        Case("single keep: auto-login from other device refused 220", singleKeep, live: [(1, .web, "a", 10, 1)], new: (.ios, "n", 20, 1), auto: true, .refuse(.deviceChanged)),
        Case("single keep: manual login kicks", singleKeep, live: [(1, .web, "a", 10, 1)], new: (.ios, "n", 20, 1), .kick([1])),
        Case("single keep: nobody live, last device differs: 220", singleKeep, live: [], new: (.ios, "n", 20, 1), auto: true,
             last: DeviceIdentity(uuid: "a", resource: "web_a"), .refuse(.deviceChanged)),
        Case("single keep: nobody live, last device is this one", singleKeep, live: [], new: (.ios, "n", 20, 1), auto: true,
             last: DeviceIdentity(uuid: "n", resource: "ios_n"), .accept),
        Case("single keep: nobody live, last unknown", singleKeep, live: [], new: (.ios, "n", 20, 1), auto: true, .accept),
        // Single-device, first device wins.
        Case("first wins: newcomer refused 213", first, live: [(1, .web, "a", 10, 1)], new: (.ios, "n", 20, 1), .refuse(.boundToAnotherDevice)),
        Case("first wins: first login accepted", first, live: [], new: (.ios, "n", 20, 1), .accept),
        Case("first wins + keep: auto-login refused 213", firstKeep, live: [(1, .web, "a", 10, 1)], new: (.ios, "n", 20, 1), auto: true, .refuse(.boundToAnotherDevice)),
    ]

    @Test(arguments: cases)
    func decide(_ testCase: Case) throws {
        let live = try testCase.live.map { id, platform, uuid, time, token in
            Fixture.session(id, try Fixture.easemob(platform, uuid: uuid, at: time, token: token))
        }
        let (platform, uuid, time, token) = testCase.new
        let device = try Fixture.easemob(platform, uuid: uuid, at: time, token: token, name: "new", extensionInfo: "{\"k\":1}")
        let attempt = LoginAttempt(device: device, isAutoLogin: testCase.isAutoLogin, lastLoginDevice: testCase.lastLoginDevice)
        let decision = try LoginPolicyEngine(policy: .easemob(testCase.policy)).decide(attempt, liveSessions: live)
        #expect(decision == testCase.expected.decision(for: device))
    }

    @Test func kickCarriesTheNewDevicesNameAndExtensionInfo() throws {
        let old = Fixture.session(1, try Fixture.easemob(.ios, uuid: "old", at: 1, name: "Old", extensionInfo: "old-ext"))
        let device = try Fixture.easemob(.android, uuid: "new", at: 2, name: "HUAWEI-X", extensionInfo: "{\"from\":\"login\"}")
        let engine = LoginPolicyEngine(policy: .easemob(Self.single))
        let decision = try engine.decide(LoginAttempt(device: device), liveSessions: [old])
        guard case .acceptAndKick(let resource, nil, let kicks) = decision else {
            Issue.record("expected a kick, got \(decision)")
            return
        }
        #expect(resource == "android_new")
        #expect(kicks.count == 1)
        #expect(kicks.first?.session == SessionID(rawValue: 1))
        #expect(kicks.first?.signal.numericCode == 206)
        #expect(kicks.first?.by.deviceName == "HUAWEI-X")
        #expect(kicks.first?.by.extensionInfo == "{\"from\":\"login\"}")
        #expect(kicks.first?.by.resource == "android_new")
        #expect(kicks.first?.by.platform == .easemob(.android))
    }
}
