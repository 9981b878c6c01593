/// Why the engine refused a login or a request: a domain reason, not a wire number. Each
/// dialect maps it to its own codes (the imock JSON dialect to Easemob's `EMErrorCode`
/// numbers, docs/PROTOCOL.md).
public enum SessionError: Error, Sendable, Hashable {
    /// The app key is malformed or names no app.
    case unknownAppKey
    /// The app's service is disabled.
    case serviceDisabled
    /// The username is not valid.
    case invalidUsername
    /// The token's signature does not match, or it is another app's.
    case invalidToken
    /// The token is not a token at all (OpenIM tells it apart: 1503).
    case tokenMalformed
    /// The token was revoked (by the control API, a password change, the user's removal …).
    case tokenRevoked
    /// The token was revoked by a kick or a force logout (OpenIM 1506).
    case tokenKicked
    /// The token has expired.
    case tokenExpired
    /// The token is valid but for another user (or an app token), or bound to another
    /// platform than the device's (an OpenIM token).
    case tokenForAnotherUser
    /// The user is deactivated (banned).
    case userDeactivated
    /// The app's distinct-active-user limit is reached by a new user.
    case activeUserLimitReached
    /// The device description is not acceptable.
    case invalidDevice
    /// The chosen resource is not acceptable.
    case invalidResource
    /// The device's platform is of the other vendor family than the app's policy.
    case platformNotAllowed
    /// The device policy refuses the login (213, 214 or 220).
    case deviceRefused(KickCode)
    /// A second login on a logged-in connection.
    case alreadyLoggedIn
    /// A request that needs a logged-in connection.
    case notLoggedIn
    /// A recipient that is not a valid username.
    case invalidRecipient
    /// A recipient that does not exist.
    case recipientNotFound
    /// The recipient's offline queue is full.
    case offlineQueueFull
    /// The text is longer than the limit (``MessageLimits/maximumTextLength``).
    case textTooLong(maximumUTF16Units: Int)
    /// Unbinding the device token failed (fault `failUnbind`).
    case unbindFailed
    /// No offline message with this id is waiting for an ack.
    case messageNotWaiting
    /// The data sync of a type failed (fault `failSync`).
    case syncFailed(SyncType)

    /// A short English sentence for the reply or the close reason.
    public var message: String {
        switch self {
        case .unknownAppKey: "unknown app key"
        case .serviceDisabled: "the app service is disabled"
        case .invalidUsername: "invalid username"
        case .invalidToken, .tokenMalformed, .tokenRevoked, .tokenKicked: "invalid token"
        case .tokenExpired: "the token has expired"
        case .tokenForAnotherUser: "the token does not authenticate this user"
        case .userDeactivated: "the user is deactivated"
        case .activeUserLimitReached: "the app's active user limit is reached"
        case .invalidDevice: "invalid device"
        case .invalidResource: "invalid resource"
        case .platformNotAllowed: "the device platform is not allowed by the app's policy"
        case .deviceRefused(.boundToAnotherDevice): "the account is bound to another device"
        case .deviceRefused(.tooManyDevices): "too many devices are logged in"
        case .deviceRefused(.deviceChanged): "the device differs from the last one"
        case .deviceRefused: "login refused"
        case .alreadyLoggedIn: "this connection is already logged in"
        case .notLoggedIn: "log in first"
        case .invalidRecipient: "field to is not a valid username"
        case .recipientNotFound: "no such user"
        case .offlineQueueFull: "the recipient's offline queue is full"
        case .textTooLong(let limit): "the text is longer than \(limit) characters (UTF-16 units)"
        case .unbindFailed: "unbinding the device token failed"
        case .messageNotWaiting: "no offline message with this id is waiting"
        case .syncFailed(let type): "data sync of \(type.rawValue) failed"
        }
    }
}
