/// The vendor whose SDK the client imitates: its callback names and its error codes.
public enum SDKProfile: String, Sendable, Hashable, CaseIterable {
    /// Easemob iOS SDK V5 (seeds 000, 004; rules E, C).
    case easemob
    /// OpenIM iOS SDK (seed 001; rules O).
    case openim
    /// ZEGOCLOUD ZIM (seed 002; rules Z).
    case zim

    /// The profile's rules.
    public var rules: ProfileRules {
        switch self {
        case .easemob:
            ProfileRules(
                loginWhileLogging: .refuse(code: 200), alreadyLoggedInSameUser: 200,
                alreadyLoggedInOtherUser: 218, notLoggedIn: 201, notConnected: 300, loginTimeout: 301,
                serverNotReachable: 300, reconnect: .easemob)
        case .openim:
            ProfileRules(
                loginWhileLogging: .join, alreadyLoggedInSameUser: 10102, alreadyLoggedInOtherUser: 10102,
                notLoggedIn: 10101, notConnected: 10003, loginTimeout: 10004, serverNotReachable: 10003,
                reconnect: .openIM)
        case .zim:
            ProfileRules(
                loginWhileLogging: .join, alreadyLoggedInSameUser: 6_000_111, alreadyLoggedInOtherUser: 6_000_111,
                notLoggedIn: 6_000_121, notConnected: 6_000_002, loginTimeout: 6_000_003,
                serverNotReachable: 6_000_002, reconnect: .easemob)
        }
    }
}

/// What a second login call does while one is in flight (O4).
public enum SecondLoginRule: Sendable, Equatable {
    /// Fail the new call at once with `code`.
    case refuse(code: Int)
    /// Let the new call share the running login's result (one completion per call).
    case join
}

/// The per-profile codes and defaults. Codes the seeds give: Easemob 200/218 (E9), OpenIM 10102
/// (O4), ZIM 6000121 (Z2–Z4). The others are this project's choice (vendor codes of the same
/// meaning) and can be changed here.
public struct ProfileRules: Sendable, Equatable {
    /// A login while another is in flight (O4).
    public var loginWhileLogging: SecondLoginRule
    /// A login of the logged-in user while logged in (E9, O4).
    public var alreadyLoggedInSameUser: Int
    /// A login of another user while one is logged in (E9: 218; O4: 10102).
    public var alreadyLoggedInOtherUser: Int
    /// A call that needs a logged-in user when there is none (Z3, Z4: 6000121).
    public var notLoggedIn: Int
    /// A call that needs the server while logged in but not connected.
    public var notConnected: Int
    /// The login did not finish within the login timeout.
    public var loginTimeout: Int
    /// The socket of the login's own attempt could not be opened or dropped before `login.ok`.
    public var serverNotReachable: Int
    /// The default back-off.
    public var reconnect: ReconnectPolicy
}
