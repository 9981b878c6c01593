import IMockCore

/// The numeric codes of `error` and `login.error` frames that are not kick codes.
///
/// The numbers are Easemob's `EMErrorCode` values (reference easemob.md §3.3), so a client can
/// hand them to an app unchanged. Kick and login-refusal codes (8, 104, 108, 202, 206, 207, 213,
/// 214, 216, 217, 220, 305) are ``KickCode`` values.
public enum ProtocolErrorCode: Int, Sendable, Hashable, CaseIterable {
    /// `EMErrorExceedServiceLimit`: the recipient's offline queue is full.
    case exceedServiceLimit = 4
    /// `EMErrorInvalidAppkey`: the login's `appKey` is malformed or names no app.
    case invalidAppKey = 100
    /// `EMErrorInvalidUsername`: the login's `user` is not a valid username.
    case invalidUsername = 101
    /// `EMErrorInvalidParam`: the frame is not valid JSON, has an unknown `op`, or a field is
    /// missing, of the wrong type or out of range (the `field` member names it).
    case invalidParam = 110
    /// `EMErrorUserAlreadyLogin`: a second `login` on a connection that is already logged in.
    case alreadyLoggedIn = 200
    /// `EMErrorUserNotLogin`: a request that needs a logged-in connection.
    case notLoggedIn = 201
    /// `EMErrorUserNotFound`: `send` to a user that does not exist.
    case userNotFound = 204
    /// `EMErrorUserUnbindDeviceTokenFailed`: `logout` with `unbindDeviceToken` failed (fault).
    case unbindDeviceTokenFailed = 212
    /// `EMErrorServerUnknownError`: a data-sync type finished with an error (fault).
    case serverUnknownError = 303
    /// `EMErrorMessageInvalid`: `ack` of a message id that is not waiting for an ack.
    case messageInvalid = 500
}

/// WebSocket close codes the server uses.
public enum CloseCode {
    /// A normal close after `logout`, or when a reconnect of the same device replaces this
    /// connection.
    public static let normal: UInt16 = 1000
    /// A binary message arrived: the imock protocol is text only (RFC 6455 "unsupported data").
    public static let unsupportedData: UInt16 = 1003
    /// The server stopped waiting for a client that does not read (its pending output passed
    /// the server's cap): RFC 6455 "policy violation".
    public static let outputOverflow: UInt16 = 1008
    /// The close code for a kick or fatal login error with Easemob code `code`: `4000 + code`
    /// (4206, 4217, 4108 …). Codes of 1000 and more (OpenIM's 2002) close with 4999, since
    /// WebSocket application codes end at 4999.
    public static func forCode(_ code: Int) -> UInt16 {
        guard code >= 0, code < 1000 else { return 4999 }
        return UInt16(4000 + code)
    }
}
