/// The numeric codes of Easemob's kicks and login refusals, as the native SDKs report them
/// (seed `000 § 多设备登录` table, `004 § 连接断开和异常登出处理`, reference easemob.md §3.3).
///
/// The policy engine itself produces only 206, 213, 214 and 220; the other cases are here so the
/// rest of the server names every code it sends to a device the same way.
public enum KickCode: Int, Sendable, Hashable, CaseIterable {
    /// `EMErrorAppActiveNumbersReachLimitation`: the app's DAU/MAU limit is reached
    /// (`userAccountDidForcedToLogout`).
    case activeUserLimitReached = 8
    /// `EMErrorInvalidToken`: empty, malformed, foreign or revoked token; returned as the login
    /// completion error (C7).
    case invalidToken = 104
    /// `EMErrorTokenExpire`: the token has expired (`tokenDidExpire`).
    case tokenExpired = 108
    /// `EMErrorUserAuthenticationFailed`: the token is valid but does not authenticate this user
    /// (`userAccountDidForcedToLogout`).
    case authenticationFailed = 202
    /// `EMErrorUserLoginOnAnotherDevice`: a newer login took this device's place
    /// (`userAccountDidLoginFromOtherDeviceWithInfo`, carrying the new device's name and extension).
    case loggedInOnAnotherDevice = 206
    /// `EMErrorUserRemoved`: the account was deleted (`userAccountDidRemoveFromServer`).
    case userRemoved = 207
    /// `EMErrorUserBindAnotherDevice`: single-device "first device wins" — the account is bound to
    /// another device, the newcomer's login fails (login completion error, C7).
    case boundToAnotherDevice = 213
    /// `EMErrorUserLoginTooManyDevices`: the device limit is reached and the keep-current-device
    /// switch refuses the auto-login that would kick (`userAccountDidForcedToLogout`).
    case tooManyDevices = 214
    /// `EMErrorUserKickedByChangePassword`: the password changed; every device is logged out.
    case kickedByPasswordChange = 216
    /// `EMErrorUserKickedByOtherDevice`: forced offline by REST, console or another device's
    /// `kickDevice`.
    case kickedByOtherDevice = 217
    /// `EMErrorUserDeviceChanged`: single-device mode with keep-current-device, an auto-login from
    /// a device other than the last one is refused (`userAccountDidLoginFromOtherDevice`).
    case deviceChanged = 220
    /// `EMErrorServerServingForbidden`: the app's service (or the user) is disabled
    /// (`userDidForbidByServer`).
    case serviceForbidden = 305
}

/// OpenIM's signals for a multi-login kick (reference openim-zim.md A2, A3, A5).
///
/// At WebSocket connect the gateway sends the live connection a `WSKickOnlineMsg` (2002) and
/// closes it; the SDK calls `OnKickedOffline` and does not reconnect. The kicked connection's
/// token is marked Kicked, so a later handshake with it fails with `TokenKickedError` (1506).
public enum OpenIMKickCode: Int, Sendable, Hashable, CaseIterable {
    /// `WSKickOnlineMsg`: pushed to the live connection that a newer login displaces.
    case kickOnlineMessage = 2002
    /// `TokenKickedError`: the handshake error for a token that a multi-login kick invalidated.
    case tokenKicked = 1506
}

/// What a kicked session is told, in its vendor's vocabulary.
public enum KickSignal: Sendable, Hashable {
    /// An Easemob code (206 for the device policy).
    case easemob(KickCode)
    /// An OpenIM signal (2002 for the device policy).
    case openIM(OpenIMKickCode)

    /// The number on the wire.
    public var numericCode: Int {
        switch self {
        case .easemob(let code): code.rawValue
        case .openIM(let code): code.rawValue
        }
    }

    /// Whether the kicked session's token must stop working (OpenIM marks it Kicked; an Easemob
    /// token survives a 206 and the kicked device may log in again with it).
    public var invalidatesToken: Bool {
        switch self {
        case .easemob: false
        case .openIM: true
        }
    }
}
