import Testing
@testable import IMockCore

/// OpenIM policies against one live connection of every platform id 1–11 (session n = platform
/// n, token 100 + n, logged in at n seconds); the newcomer uses token 999.
@Suite("OpenIM policy × platform class")
struct OpenIMPolicyTableTests {
    static func liveOfEveryPlatform() throws -> [LiveSession] {
        try OpenIMPlatform.allCases.map {
            Fixture.session(UInt64($0.rawValue), try Fixture.openIM($0, uuid: "u\($0.rawValue)", at: Int64($0.rawValue) * 1_000, token: 100 + UInt64($0.rawValue)))
        }
    }

    /// (policy, new platform id, kicked session ids)
    static let cases: [(OpenIMMultiLoginPolicy, Int, [UInt64])] =
        (1...11).map { (.defaultNotKick, $0, []) }
        + [
            (.allLoginButSameTermKick, 1, [1]), (.allLoginButSameTermKick, 2, [2]), (.allLoginButSameTermKick, 3, [3]),
            (.allLoginButSameTermKick, 4, [4]), (.allLoginButSameTermKick, 5, [5]), (.allLoginButSameTermKick, 6, [6]),
            (.allLoginButSameTermKick, 7, [7]), (.allLoginButSameTermKick, 8, [8]), (.allLoginButSameTermKick, 9, [9]),
            (.allLoginButSameTermKick, 10, []), (.allLoginButSameTermKick, 11, [11]),
            (.allLoginButSameClassKick, 1, [1, 2]), (.allLoginButSameClassKick, 2, [1, 2]),
            (.allLoginButSameClassKick, 3, [3, 4, 7]), (.allLoginButSameClassKick, 4, [3, 4, 7]),
            (.allLoginButSameClassKick, 5, [5]), (.allLoginButSameClassKick, 6, [6]),
            (.allLoginButSameClassKick, 7, [3, 4, 7]), (.allLoginButSameClassKick, 8, [8, 9]),
            (.allLoginButSameClassKick, 9, [8, 9]), (.allLoginButSameClassKick, 10, []),
            (.allLoginButSameClassKick, 11, [11]),
            (.pcAndOther, 1, [1, 2, 5, 6, 8, 9, 11]), (.pcAndOther, 2, [1, 2, 5, 6, 8, 9, 11]),
            (.pcAndOther, 3, []), (.pcAndOther, 4, []), (.pcAndOther, 5, [1, 2, 5, 6, 8, 9, 11]),
            (.pcAndOther, 6, [1, 2, 5, 6, 8, 9, 11]), (.pcAndOther, 7, []),
            (.pcAndOther, 8, [1, 2, 5, 6, 8, 9, 11]), (.pcAndOther, 9, [1, 2, 5, 6, 8, 9, 11]),
            (.pcAndOther, 10, []), (.pcAndOther, 11, [1, 2, 5, 6, 8, 9, 11]),
        ]

    @Test(arguments: cases)
    func decide(_ policy: OpenIMMultiLoginPolicy, newPlatformID: Int, kicked: [UInt64]) throws {
        let platform = try OpenIMPlatform(platformID: newPlatformID)
        let device = try Fixture.openIM(platform, uuid: "new", at: 20_000, token: 999)
        let decision = try LoginPolicyEngine(policy: .openIM(policy))
            .decide(LoginAttempt(device: device), liveSessions: try Self.liveOfEveryPlatform())
        let expected: Expected = kicked.isEmpty ? .accept : .kick(kicked)
        #expect(decision == expected.decision(for: device))
    }

    /// A connection that uses the newcomer's token is never kicked, whatever the policy.
    @Test(arguments: [OpenIMMultiLoginPolicy.allLoginButSameTermKick, .allLoginButSameClassKick, .pcAndOther])
    func sameTokenIsNeverKicked(_ policy: OpenIMMultiLoginPolicy) throws {
        let sharing = Fixture.session(1, try Fixture.openIM(.ios, uuid: "other", at: 1, token: 7))
        let other = Fixture.session(2, try Fixture.openIM(.ios, uuid: "third", at: 2, token: 8))
        let device = try Fixture.openIM(.ios, uuid: "new", at: 3, token: 7)
        let decision = try LoginPolicyEngine(policy: .openIM(policy)).decide(LoginAttempt(device: device), liveSessions: [sharing, other])
        #expect(decision == Expected.kick([2]).decision(for: device))
    }

    @Test func kickSignalIs2002AndInvalidatesTheToken() throws {
        let old = Fixture.session(1, try Fixture.openIM(.android, uuid: "a", at: 1, token: 7))
        let device = try Fixture.openIM(.android, uuid: "b", at: 2, token: 8)
        let decision = try LoginPolicyEngine(policy: .openIM(.allLoginButSameTermKick)).decide(LoginAttempt(device: device), liveSessions: [old])
        guard case .acceptAndKick(_, _, let kicks) = decision, let kick = kicks.first else {
            Issue.record("expected a kick, got \(decision)")
            return
        }
        #expect(kick.signal == .openIM(.kickOnlineMessage))
        #expect(kick.signal.numericCode == 2002)
        #expect(kick.signal.invalidatesToken)
        #expect(KickSignal.easemob(.loggedInOnAnotherDevice).invalidatesToken == false)
    }

    @Test(arguments: [(0, OpenIMMultiLoginPolicy.defaultNotKick), (1, .allLoginButSameTermKick), (4, .allLoginButSameClassKick), (5, .pcAndOther)])
    func policyValues(_ value: Int, _ policy: OpenIMMultiLoginPolicy) throws {
        #expect(try OpenIMMultiLoginPolicy(policyValue: value) == policy)
    }

    @Test(arguments: [-1, 2, 3, 6, 7])
    func removedOrUnknownPolicyValuesAreRefused(_ value: Int) {
        #expect(throws: LoginPolicyError.unknownOpenIMPolicy(value)) { try OpenIMMultiLoginPolicy(policyValue: value) }
    }

    @Test(arguments: [
        (1, OpenIMPlatformClass.mobile), (2, .mobile), (3, .pc), (4, .pc), (5, .web), (6, .miniWeb),
        (7, .pc), (8, .pad), (9, .pad), (10, .admin), (11, .harmonyOS),
    ])
    func platformClasses(_ id: Int, _ platformClass: OpenIMPlatformClass) throws {
        #expect(try OpenIMPlatform(platformID: id).platformClass == platformClass)
    }

    @Test(arguments: [0, 12, -3])
    func unknownPlatformIDs(_ id: Int) {
        #expect(throws: DeviceDescriptionError.unknownOpenIMPlatformID(id)) { try OpenIMPlatform(platformID: id) }
    }
}
