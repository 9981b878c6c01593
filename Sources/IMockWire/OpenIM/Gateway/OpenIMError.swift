import IMockCore

/// The OpenIM server's error codes that imock sends, REST and gateway alike (open-im-server
/// `pkg/common/servererrs`, openimsdk/tools `errs`; reference openim-zim.md §A2). The raw value
/// is the `errCode`, ``name`` the `errMsg`.
public enum OpenIMErrorCode: Int, Sendable, Hashable, CaseIterable {
    /// Any other error (a non-coded error or a missing handshake `isBackground`).
    case serverInternal = 500
    /// A bad body, header or argument.
    case args = 1001
    /// Not an admin, a wrong secret, an escalation.
    case noPermission = 1002
    /// A record or user that does not exist.
    case recordNotFound = 1004
    /// `user_register` with an existing userID.
    case registeredAlready = 1102
    /// The token has expired.
    case tokenExpired = 1501
    /// The token is of another user or platform than the handshake's `sendID` / `platformID`.
    case tokenInvalid = 1502
    /// The token is not a JWT. (1504, not valid yet, needs an `nbf`, which neither OpenIM nor
    /// imock sets.)
    case tokenMalformed = 1503
    /// Any other token validation error: a bad signature, another deployment's (app's) token.
    case tokenUnknown = 1505
    /// The token was kicked by a multi-login policy or a force logout.
    case tokenKicked = 1506
    /// The token is not in the server's token store (revoked, its user gone).
    case tokenNotExist = 1507
    /// A bad handshake argument (`token`, `sendID`, `platformID`, `operationID`, `sdkType`, …).
    case connArgs = 1602

    /// The `errMsg` the server sends with the code.
    public var name: String {
        switch self {
        case .serverInternal: "ServerInternalError"
        case .args: "ArgsError"
        case .noPermission: "NoPermissionError"
        case .recordNotFound: "RecordNotFoundError"
        case .registeredAlready: "RegisteredAlreadyError"
        case .tokenExpired: "TokenExpiredError"
        case .tokenInvalid: "TokenInvalidError"
        case .tokenMalformed: "TokenMalformedError"
        case .tokenUnknown: "TokenUnknownError"
        case .tokenKicked: "TokenKickedError"
        case .tokenNotExist: "TokenNotExistError"
        case .connArgs: "ConnArgsErr"
        }
    }

    /// The code of a refused token (ParseToken's order: malformed 1503, expired 1501, other
    /// validation errors 1505, not in the store 1507, kicked 1506).
    public init(_ error: TokenError) {
        switch error {
        case .malformed: self = .tokenMalformed
        case .expired: self = .tokenExpired
        case .badSignature, .otherApp: self = .tokenUnknown
        case .revoked: self = .tokenNotExist
        case .kicked: self = .tokenKicked
        }
    }
}

/// An OpenIM error: the code and the details (`errDlt`).
public struct OpenIMError: Error, Sendable, Equatable {
    /// The code.
    public var code: OpenIMErrorCode
    /// The details, in English.
    public var detail: String

    /// Creates an error.
    public init(_ code: OpenIMErrorCode, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// `{"errCode":…,"errMsg":…,"errDlt":…}`: the gateway's handshake refusal and the REST
    /// envelope without `data`.
    public var json: JSONValue {
        .object([("errCode", .int(Int64(code.rawValue))), ("errMsg", .string(code.name)), ("errDlt", .string(detail))])
    }

    /// The code and details for a refused login or request of the engine.
    public init(_ error: SessionError) {
        switch error {
        case .tokenExpired: self.init(.tokenExpired, error.message)
        case .tokenForAnotherUser: self.init(.tokenInvalid, "the token is not of this sendID and platformID")
        case .tokenMalformed: self.init(.tokenMalformed, "the token is not a JWT")
        case .invalidToken: self.init(.tokenUnknown, "the token's signature does not match")
        case .tokenRevoked: self.init(.tokenNotExist, "the token does not exist")
        case .tokenKicked: self.init(.tokenKicked, "the token was kicked")
        case .unknownAppKey, .recipientNotFound: self.init(.recordNotFound, error.message)
        case .invalidUsername, .invalidDevice, .invalidResource, .invalidRecipient, .textTooLong: self.init(.args, error.message)
        case .platformNotAllowed:
            self.init(.connArgs, "the app's login policy is not OpenIM's (set loginPolicy {\"vendor\":\"openim\"})")
        case .serviceDisabled, .userDeactivated, .activeUserLimitReached, .deviceRefused:
            self.init(.noPermission, error.message)
        case .alreadyLoggedIn, .notLoggedIn, .offlineQueueFull, .unbindFailed, .messageNotWaiting, .syncFailed:
            self.init(.serverInternal, error.message)
        }
    }
}
