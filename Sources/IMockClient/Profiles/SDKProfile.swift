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
                alreadyLoggedInOtherUser: 218, notLoggedIn: 201, offlineLoginNotLastUser: 201, notConnected: 300,
                loginTimeout: 301, serverNotReachable: 300, logoutCutBySessionEnd: nil, reconnect: .easemob)
        case .openim:
            ProfileRules(
                loginWhileLogging: .join, alreadyLoggedInSameUser: 10102, alreadyLoggedInOtherUser: 10102,
                notLoggedIn: 10101, offlineLoginNotLastUser: 10101, notConnected: 10003, loginTimeout: 10004,
                serverNotReachable: 10003, logoutCutBySessionEnd: nil, reconnect: .openIM)
        case .zim:
            // reference/openim-zim.md §B2: 6000124 offline login of another user; 6000009
            // "disconnected while sending the request"; 6000104 network error; 6000105 response
            // timeout (zh table only); 6000122 "user already logged out" (zh table only).
            // Not 6000002 / 6000003: those mean "SDK not initialised" / "invalid AppID".
            ProfileRules(
                loginWhileLogging: .join, alreadyLoggedInSameUser: 6_000_111, alreadyLoggedInOtherUser: 6_000_111,
                notLoggedIn: 6_000_121, offlineLoginNotLastUser: 6_000_124, notConnected: 6_000_009,
                loginTimeout: 6_000_105, serverNotReachable: 6_000_104, logoutCutBySessionEnd: 6_000_122,
                reconnect: .easemob)
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
/// (O4), ZIM 6000121 (Z2–Z4), ZIM 6000124 (offline login of another user). The others are this
/// project's choice among the vendor's documented codes of the same meaning
/// (`reference/easemob.md` §3.3, `reference/openim-zim.md` §A, §B2) and can be changed here.
public struct ProfileRules: Sendable, Equatable {
    /// A login while another is in flight (O4).
    public var loginWhileLogging: SecondLoginRule
    /// A login of the logged-in user while logged in (E9, O4).
    public var alreadyLoggedInSameUser: Int
    /// A login of another user while one is logged in (E9: 218; O4: 10102).
    public var alreadyLoggedInOtherUser: Int
    /// A call that needs a logged-in user when there is none (Z3, Z4: 6000121).
    public var notLoggedIn: Int
    /// An offline login (Z5) of a user other than the last online one (ZIM: 6000124).
    public var offlineLoginNotLastUser: Int
    /// A call that needs the server while logged in but not connected; also the error of a
    /// `send` or `renewToken` whose reply a recoverable drop cut off.
    public var notConnected: Int
    /// The login did not finish within the login timeout.
    public var loginTimeout: Int
    /// The socket of the login's own attempt could not be opened or dropped before `login.ok`.
    public var serverNotReachable: Int
    /// What a `logout` waiting for its reply gets when a kick or a token error ends the session:
    /// nil for success (the user is logged out, as asked), or a code ("already logged out").
    public var logoutCutBySessionEnd: Int?
    /// The default back-off.
    public var reconnect: ReconnectPolicy
}
