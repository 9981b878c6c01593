import IMockCore

/// The `Status` an msync server answers for each Easemob error code (`EMErrorCode` numbers, as
/// the imock protocol and the reference client use them), chosen so the Web SDK maps it to the
/// matching web error (its `receiveProvisionResult`: reference easemob.md §4.2), and back.
///
/// | code | status | reason | Web SDK error |
/// |---|---|---|---|
/// | 108 | FAIL | `Sorry, token expired` | 56 WEBIM_TOKEN_EXPIRED |
/// | 104 | FAIL | `Sorry, token or password does not match login info` | 28 "INVALID_TOKEN" |
/// | 204 | FAIL | `Sorry, user not found` | 204 USER_NOT_FOUND |
/// | 202 | FAIL | `Sorry, the token does not authenticate this user` | 2 "Auth failed" |
/// | 100 | UNAUTHORIZED | `Sorry, unknown app key` | 2 "Auth failed" |
/// | 305 | IM_FORBIDDEN | `Sorry, the app service is disabled` / `Sorry, the user is banned` | 57 |
/// | 8 | PERMISSION_DENIED | `Sorry, the app month live count limit` | 50 MAX_LIMIT |
/// | 213 | BIND_ANOTHER_DEVICE | `Sorry, the user is bound to another device` | 2, message = reason |
/// | 214 | TOO_MANY_DEVICES | `Sorry, too many devices are logged in` | 2, message = reason |
/// | 220 | BIND_ANOTHER_DEVICE | `Sorry, the device differs from the last one` | 2, message = reason |
/// | 101, 110 | WRONG_PARAMETER | the engine's sentence | −3 |
/// | any other | NO_ROUTE | `Sorry, error <code>: <sentence>` | 2, message = reason |
public enum MsyncStatusTable {
    /// One row: the code and the status that says it.
    public struct Row: Sendable, Equatable {
        /// The Easemob error code.
        public var code: Int
        /// The status code.
        public var errorCode: MsyncPB.Status.ErrorCode
        /// The reason text (the Web SDK compares it literally for FAIL and PERMISSION_DENIED).
        public var reason: String
    }

    /// The rows with fixed reasons, in the order the reverse lookup tries them.
    public static let rows: [Row] = [
        Row(code: KickCode.tokenExpired.rawValue, errorCode: .fail, reason: "Sorry, token expired"),
        Row(code: KickCode.invalidToken.rawValue, errorCode: .fail, reason: "Sorry, token or password does not match login info"),
        Row(code: 204, errorCode: .fail, reason: "Sorry, user not found"),
        Row(code: KickCode.authenticationFailed.rawValue, errorCode: .fail, reason: "Sorry, the token does not authenticate this user"),
        Row(code: 100, errorCode: .unauthorized, reason: "Sorry, unknown app key"),
        Row(code: KickCode.serviceForbidden.rawValue, errorCode: .imForbidden, reason: "Sorry, the app service is disabled"),
        Row(code: KickCode.serviceForbidden.rawValue, errorCode: .imForbidden, reason: "Sorry, the user is banned"),
        Row(code: KickCode.activeUserLimitReached.rawValue, errorCode: .permissionDenied, reason: "Sorry, the app month live count limit"),
        Row(code: KickCode.boundToAnotherDevice.rawValue, errorCode: .bindAnotherDevice, reason: "Sorry, the user is bound to another device"),
        Row(code: KickCode.tooManyDevices.rawValue, errorCode: .tooManyDevices, reason: "Sorry, too many devices are logged in"),
        Row(code: KickCode.deviceChanged.rawValue, errorCode: .bindAnotherDevice, reason: "Sorry, the device differs from the last one"),
    ]

    /// The status of a refused login.
    public static func status(for error: SessionError) -> MsyncPB.Status {
        switch error {
        case .tokenExpired: status(code: KickCode.tokenExpired.rawValue)
        case .invalidToken, .tokenMalformed, .tokenRevoked, .tokenKicked: status(code: KickCode.invalidToken.rawValue)
        case .tokenForAnotherUser: status(code: KickCode.authenticationFailed.rawValue)
        case .unknownAppKey: status(code: 100)
        case .serviceDisabled: MsyncPB.Status(errorCode: .imForbidden, reason: "Sorry, the app service is disabled")
        case .userDeactivated: MsyncPB.Status(errorCode: .imForbidden, reason: "Sorry, the user is banned")
        case .activeUserLimitReached: status(code: KickCode.activeUserLimitReached.rawValue)
        case .deviceRefused(let code): status(code: code.rawValue)
        case .invalidUsername, .invalidDevice, .invalidResource, .platformNotAllowed, .textTooLong:
            MsyncPB.Status(errorCode: .wrongParameter, reason: "Sorry, " + error.message)
        case .recipientNotFound, .invalidRecipient:
            MsyncPB.Status(errorCode: .fail, reason: "Sorry, user not found")
        default:
            MsyncPB.Status(errorCode: .fail, reason: "Sorry, " + error.message)
        }
    }

    /// The status saying `code` (a kick with a code the SDK has no statistic operation for).
    public static func status(code: Int, sentence: String? = nil) -> MsyncPB.Status {
        if let row = rows.first(where: { $0.code == code }) {
            return MsyncPB.Status(errorCode: row.errorCode, reason: row.reason)
        }
        return MsyncPB.Status(errorCode: .noRoute, reason: "Sorry, error \(code): \(sentence ?? "kicked")")
    }

    /// The Easemob code a status says (the reference client's reading), and its sentence.
    public static func code(of status: MsyncPB.Status) -> (code: Int, message: String) {
        let errorCode = status.errorCode ?? .ok
        let reason = status.reason ?? ""
        if let row = rows.first(where: { $0.errorCode == errorCode && $0.reason == reason }) {
            return (row.code, reason)
        }
        switch errorCode {
        case .ok: return (0, reason)
        case .imForbidden: return (KickCode.serviceForbidden.rawValue, reason)
        case .permissionDenied: return (KickCode.activeUserLimitReached.rawValue, reason)
        case .tooManyDevices: return (KickCode.tooManyDevices.rawValue, reason)
        case .bindAnotherDevice: return (KickCode.boundToAnotherDevice.rawValue, reason)
        case .wrongParameter, .missingParameter: return (110, reason)
        case .tokenExpired: return (KickCode.tokenExpired.rawValue, reason)
        case .noRoute:
            if let code = Self.embeddedCode(reason) { return (code, reason) }
            return (KickCode.authenticationFailed.rawValue, reason)
        default: return (KickCode.authenticationFailed.rawValue, reason)
        }
    }

    /// `N` of a reason `Sorry, error N: …`.
    private static func embeddedCode(_ reason: String) -> Int? {
        let prefix = "Sorry, error "
        guard reason.hasPrefix(prefix) else { return nil }
        return Int(reason.dropFirst(prefix.count).prefix { $0.isNumber })
    }
}
