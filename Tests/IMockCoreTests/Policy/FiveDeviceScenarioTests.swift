import Testing
@testable import IMockCore

/// The "Done when": five devices of one user across three platform groups, logging in
/// one after another, produce exactly the predicted kicks under each policy.
@Suite("Five devices, three groups, every policy")
struct FiveDeviceScenarioTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let policy: LoginPolicy
        /// One expectation per login step; session n is the n-th login.
        let steps: [Expected]
        let finalLive: [UInt64]
        var testDescription: String { name }
    }

    /// Easemob: ios, android (mobile), web, windows (desktop), ios (mobile), one second apart.
    static func easemobLogins() throws -> [LoginDevice] {
        [
            try Fixture.easemob(.ios, uuid: "u1", at: 1_000, name: "iPhone", extensionInfo: "e1"),
            try Fixture.easemob(.android, uuid: "u2", at: 2_000, name: "Pixel", extensionInfo: "e2"),
            try Fixture.easemob(.web, uuid: "u3", at: 3_000, name: "Chrome", extensionInfo: "e3"),
            try Fixture.easemob(.windows, uuid: "u4", at: 4_000, name: "PC", extensionInfo: "e4"),
            try Fixture.easemob(.ios, uuid: "u5", at: 5_000, name: "iPad", extensionInfo: "e5"),
        ]
    }

    static func limits(mobile: Int, web: Int, desktop: Int) -> EasemobDeviceLimits {
        (try? EasemobDeviceLimits(overrides: [.mobile: mobile, .web: web, .desktop: desktop])) ?? .standard
    }

    static let easemobCases: [Case] = [
        Case(name: "multi, default 4 per group", policy: .easemobDefault,
             steps: [.accept, .accept, .accept, .accept, .accept], finalLive: [1, 2, 3, 4, 5]),
        Case(name: "multi, mobile 2", policy: .easemob(.init(mode: .multiDevice(limits(mobile: 2, web: 4, desktop: 4)))),
             steps: [.accept, .accept, .accept, .accept, .kick([1])], finalLive: [2, 3, 4, 5]),
        Case(name: "multi, 1 per group", policy: .easemob(.init(mode: .multiDevice(limits(mobile: 1, web: 1, desktop: 1)))),
             steps: [.accept, .kick([1]), .accept, .accept, .kick([2])], finalLive: [3, 4, 5]),
        Case(name: "single, new kicks old", policy: .easemob(.init(mode: .singleDevice(.newKicksOld))),
             steps: [.accept, .kick([1]), .kick([2]), .kick([3]), .kick([4])], finalLive: [5]),
        Case(name: "single, first device wins", policy: .easemob(.init(mode: .singleDevice(.firstDeviceWins))),
             steps: [.accept, .refuse(.boundToAnotherDevice), .refuse(.boundToAnotherDevice),
                     .refuse(.boundToAnotherDevice), .refuse(.boundToAnotherDevice)],
             finalLive: [1]),
    ]

    @Test(arguments: easemobCases)
    func easemob(_ testCase: Case) throws {
        var simulator = LoginSimulator(policy: testCase.policy)
        let devices = try Self.easemobLogins()
        for (step, device) in devices.enumerated() {
            let decision = try simulator.login(LoginAttempt(device: device))
            #expect(decision == testCase.steps[step].decision(for: device), "step \(step + 1)")
        }
        #expect(simulator.liveIDs == testCase.finalLive)
    }

    /// The same five logins as auto-logins with keep-current-device: every would-be kick is a
    /// refusal instead.
    static let easemobKeepCases: [Case] = [
        Case(name: "keep, multi, 1 per group", policy: .easemob(.init(mode: .multiDevice(limits(mobile: 1, web: 1, desktop: 1)), keepCurrentDevice: true)),
             steps: [.accept, .refuse(.tooManyDevices), .accept, .accept, .refuse(.tooManyDevices)],
             finalLive: [1, 3, 4]),
        Case(name: "keep, single, new kicks old", policy: .easemob(.init(mode: .singleDevice(.newKicksOld), keepCurrentDevice: true)),
             steps: [.accept, .refuse(.deviceChanged), .refuse(.deviceChanged), .refuse(.deviceChanged), .refuse(.deviceChanged)],
             finalLive: [1]),
    ]

    @Test(arguments: easemobKeepCases)
    func easemobAutoLoginWithKeepCurrentDevice(_ testCase: Case) throws {
        var simulator = LoginSimulator(policy: testCase.policy)
        for (step, device) in try Self.easemobLogins().enumerated() {
            let decision = try simulator.login(LoginAttempt(device: device, isAutoLogin: true))
            #expect(decision == testCase.steps[step].decision(for: device), "step \(step + 1)")
        }
        #expect(simulator.liveIDs == testCase.finalLive)
    }

    /// OpenIM: iOS, Android (Mobile), Web, Windows (PC), iOS again; each with its own token.
    static func openIMLogins() throws -> [LoginDevice] {
        [
            try Fixture.openIM(.ios, uuid: "u1", at: 1_000, token: 11),
            try Fixture.openIM(.android, uuid: "u2", at: 2_000, token: 12),
            try Fixture.openIM(.web, uuid: "u3", at: 3_000, token: 13),
            try Fixture.openIM(.windows, uuid: "u4", at: 4_000, token: 14),
            try Fixture.openIM(.ios, uuid: "u5", at: 5_000, token: 15),
        ]
    }

    static let openIMCases: [Case] = [
        Case(name: "OpenIM 0", policy: .openIM(.defaultNotKick),
             steps: [.accept, .accept, .accept, .accept, .accept], finalLive: [1, 2, 3, 4, 5]),
        Case(name: "OpenIM 1", policy: .openIM(.allLoginButSameTermKick),
             steps: [.accept, .accept, .accept, .accept, .kick([1])], finalLive: [2, 3, 4, 5]),
        Case(name: "OpenIM 4", policy: .openIM(.allLoginButSameClassKick),
             steps: [.accept, .kick([1]), .accept, .accept, .kick([2])], finalLive: [3, 4, 5]),
        Case(name: "OpenIM 5", policy: .openIM(.pcAndOther),
             steps: [.accept, .kick([1]), .kick([2]), .accept, .kick([3])], finalLive: [4, 5]),
    ]

    @Test(arguments: openIMCases)
    func openIM(_ testCase: Case) throws {
        var simulator = LoginSimulator(policy: testCase.policy)
        for (step, device) in try Self.openIMLogins().enumerated() {
            let decision = try simulator.login(LoginAttempt(device: device))
            #expect(decision == testCase.steps[step].decision(for: device), "step \(step + 1)")
        }
        #expect(simulator.liveIDs == testCase.finalLive)
    }
}
