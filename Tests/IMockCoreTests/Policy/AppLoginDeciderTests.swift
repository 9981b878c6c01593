import IMockCommon
import Testing

@testable import IMockCore

@Suite struct AppLoginDeciderTests {
    private static func app(_ name: String, _ policy: LoginPolicy) throws -> App {
        App(
            key: try AppKey(org: "acme", app: name), settings: AppSettings(loginPolicy: policy), clientID: "id",
            clientSecret: "secret", random: .secure)
    }

    /// The same login against the same live sessions, decided by each app's own policy.
    @Test func eachAppIsDecidedByItsOwnPolicy() throws {
        let old = Fixture.session(1, try Fixture.easemob(.ios, uuid: "old", at: 1))
        let new = try Fixture.easemob(.android, uuid: "new", at: 2)
        let attempt = LoginAttempt(device: new)
        let decider = AppLoginDecider()
        let multi = try Self.app("multi", .easemobDefault)
        let kicking = try Self.app("kicking", .easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld))))
        let first = try Self.app("first", .easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins))))
        #expect(try decider.decide(attempt, liveSessions: [old], app: multi) == Expected.accept.decision(for: new))
        #expect(try decider.decide(attempt, liveSessions: [old], app: kicking) == Expected.kick([1]).decision(for: new))
        #expect(try decider.decide(attempt, liveSessions: [old], app: first) == .refuse(code: .boundToAnotherDevice))
    }

    @Test func aDeviceOfTheOtherVendorFamilyIsRefused() throws {
        let device = try Fixture.easemob(.web, uuid: "w", at: 1)
        let openIMApp = try Self.app("openim", .openIM(.allLoginButSameTermKick))
        #expect(throws: LoginPolicyError.platformFamilyMismatch(.easemob(.web))) {
            try AppLoginDecider().decide(LoginAttempt(device: device), liveSessions: [], app: openIMApp)
        }
    }
}
