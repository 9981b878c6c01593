extension MsyncPB.Status {
    /// `Status.ErrorCode`.
    public enum ErrorCode: ProtobufEnum {
        /// `OK = 0`.
        case ok
        /// `FAIL = 1`: the reason text says why (expired token, user not found …).
        case fail
        /// `UNAUTHORIZED = 2`.
        case unauthorized
        /// `MISSING_PARAMETER = 3`.
        case missingParameter
        /// `WRONG_PARAMETER = 4`.
        case wrongParameter
        /// `REDIRECT = 5`.
        case redirect
        /// `TOKEN_EXPIRED = 6`.
        case tokenExpired
        /// `PERMISSION_DENIED = 7`.
        case permissionDenied
        /// `NO_ROUTE = 8`.
        case noRoute
        /// `UNKNOWN_COMMAND = 9`.
        case unknownCommand
        /// `PB_PARSER_ERROR = 10`.
        case pbParserError
        /// `BIND_ANOTHER_DEVICE = 11`.
        case bindAnotherDevice
        /// `IM_FORBIDDEN = 12`.
        case imForbidden
        /// `TOO_MANY_DEVICES = 13`.
        case tooManyDevices
        /// `PLATFORM_LIMIT = 14`.
        case platformLimit
        /// `USER_MUTED = 15`.
        case userMuted
        /// `ENCRYPT_DISABLE = 16`.
        case encryptDisable
        /// `ENCRYPT_ENABLE = 17`.
        case encryptEnable
        /// `DECRYPT_FAILURE = 18`.
        case decryptFailure
        /// `PERMISSION_DENIED_EXTERNAL = 19`.
        case permissionDeniedExternal
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [ErrorCode] = [
            .ok, .fail, .unauthorized, .missingParameter, .wrongParameter, .redirect, .tokenExpired,
            .permissionDenied, .noRoute, .unknownCommand, .pbParserError, .bindAnotherDevice, .imForbidden,
            .tooManyDevices, .platformLimit, .userMuted, .encryptDisable, .encryptEnable, .decryptFailure,
            .permissionDeniedExternal,
        ]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .ok: 0
            case .fail: 1
            case .unauthorized: 2
            case .missingParameter: 3
            case .wrongParameter: 4
            case .redirect: 5
            case .tokenExpired: 6
            case .permissionDenied: 7
            case .noRoute: 8
            case .unknownCommand: 9
            case .pbParserError: 10
            case .bindAnotherDevice: 11
            case .imForbidden: 12
            case .tooManyDevices: 13
            case .platformLimit: 14
            case .userMuted: 15
            case .encryptDisable: 16
            case .encryptEnable: 17
            case .decryptFailure: 18
            case .permissionDeniedExternal: 19
            case .unrecognized(let value): value
            }
        }
    }
}
