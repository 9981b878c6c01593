import IMockCore
import IMockNet

/// An error response in the Easemob/Usergrid shape:
/// `{"error","exception","timestamp","duration","error_description"}`.
public struct RESTError: Error, Sendable, Equatable {
    /// HTTP status.
    public var status: Int
    /// The snake_case error name, e.g. `illegal_argument`.
    public var error: String
    /// The Java exception class name the real service reports.
    public var exception: String
    /// The human-readable description.
    public var description: String

    /// Creates an error.
    public init(status: Int, error: String, exception: String, description: String) {
        self.status = status
        self.error = error
        self.exception = exception
        self.description = description
    }

    /// The JSON body at time `nowMs`.
    public func body(nowMs: Int64) -> JSONValue {
        [
            "error": .string(error), "exception": .string(exception), "timestamp": .int(nowMs), "duration": 0,
            "error_description": .string(description),
        ]
    }

    /// The HTTP response at time `nowMs`.
    public func response(nowMs: Int64) -> HTTPResponse {
        .json(status: status, body(nowMs: nowMs).encoded())
    }
}

extension RESTError {
    static let illegalArgumentException = "java.lang.IllegalArgumentException"
    static let securityException = "EasemobSecurityException"
    static let oauthException = "OAuthProblemException"

    /// 400 `illegal_argument`.
    public static func illegalArgument(_ description: String) -> RESTError {
        RESTError(status: 400, error: "illegal_argument", exception: illegalArgumentException, description: description)
    }

    /// 400 `json_parse` for a body that is not JSON.
    public static let jsonParse = RESTError(
        status: 400, error: "json_parse", exception: "com.fasterxml.jackson.core.JsonParseException",
        description: "Unexpected character.")

    /// 400/404 `invalid_grant`.
    static func invalidGrant(_ description: String, status: Int = 400) -> RESTError {
        RESTError(status: status, error: "invalid_grant", exception: oauthException, description: description)
    }

    /// 401 `unauthorized` "Unable to authenticate (OAuth)": no token or a revoked one.
    public static let unauthorized = RESTError(
        status: 401, error: "unauthorized", exception: securityException, description: "Unable to authenticate (OAuth)")

    /// 401 for a tokenless registration in authorized mode.
    public static let registrationNotOpen = RESTError(
        status: 401, error: "unauthorized", exception: securityException,
        description: "Open registration doesn't allow, so register user need token,")

    /// 401 for a user token on an admin route.
    static func noPermission(method: String, app: RESTApp) -> RESTError {
        RESTError(
            status: 401, error: "unauthorized", exception: "org.apache.shiro.authz.UnauthorizedException",
            description: "Subject does not have permission [applications:\(method.lowercased()):\(app.uuid):/users]")
    }

    /// 404 `organization_application_not_found`.
    public static func appNotFound(org: String, app: String, path: String) -> RESTError {
        RESTError(
            status: 404, error: "organization_application_not_found",
            exception: "OrganizationApplicationNotFoundException",
            description: "Could not find application for \(org)/\(app) from URI: \(path.drop { $0 == "/" })")
    }

    /// 404 `service_resource_not_found` (user missing, or no such route).
    public static let serviceResourceNotFound = RESTError(
        status: 404, error: "service_resource_not_found", exception: "UserNotFoundException",
        description: "Service resource not found")

    /// 404 `entity_not_found` "User null not found".
    static let entityNotFound = RESTError(
        status: 404, error: "entity_not_found", exception: "EntityNotFoundException",
        description: "User null not found")

    /// 405 for a known path with another method.
    public static let methodNotAllowed = RESTError(
        status: 405, error: "web_application", exception: "javax.ws.rs.NotAllowedException",
        description: "HTTP 405 Method Not Allowed")

    /// 413 for a body over the server's limit (used by the HTTP layer).
    public static let payloadTooLarge = RESTError(
        status: 413, error: "web_application", exception: "javax.ws.rs.WebApplicationException",
        description: "HTTP 413 Request Entity Too Large")

    /// 415 for a body that is not `application/json`.
    public static let unsupportedMediaType = RESTError(
        status: 415, error: "web_application", exception: "javax.ws.rs.WebApplicationException",
        description: "Unsupported Media Type.")

    /// 429 `reach_limit`.
    public static let reachLimit = RESTError(
        status: 429, error: "reach_limit", exception: "ReachLimitException",
        description: "This request has reached api limit")

    /// The response to a token the app refuses.
    static func from(_ error: TokenError) -> RESTError {
        switch error {
        case .malformed, .badSignature:
            RESTError(
                status: 401, error: "auth_bad_access_token", exception: securityException,
                description: "Unable to authenticate due to corrupt access token")
        case .otherApp:
            RESTError(
                status: 401, error: "auth_bad_access_token", exception: securityException,
                description: "Unable to authenticate")
        case .expired:
            RESTError(
                status: 401, error: "unauthorized", exception: securityException,
                description: "Unable to authenticate due to expired access token")
        case .revoked, .kicked:
            unauthorized
        }
    }

    /// The response to a domain error; `userNotFound` is the route's own not-found error.
    static func from(_ error: DirectoryError, app: RESTApp?, userNotFound: RESTError = .serviceResourceNotFound)
        -> RESTError
    {
        switch error {
        case .invalidOrgName, .invalidAppName, .invalidAppKey, .appNotFound, .appExists, .invalidSettings,
            .invalidCredentials:
            illegalArgument("invalid app")
        case .illegalUsername(let name): illegalArgument("username [\(name)] is not legal")
        case .usernameTooLong: illegalArgument("USERNAME_TOO_LONG")
        case .passwordMissing: illegalArgument("password or pin must provided")
        case .passwordTooLong: illegalArgument("PASSWORD_TOO_LONG")
        case .nicknameTooLong: illegalArgument("NICKNAME_TOO_LONG")
        case .userExists(let name):
            RESTError(
                status: 400, error: "duplicate_unique_property_exists",
                exception: "DuplicateUniquePropertyExistsException",
                description:
                    "Application \(app?.uuid ?? "null") Entity user requires that property named username be unique, value of \(name) exists"
            )
        case .userExistsInBatch(let name):
            RESTError(
                status: 400, error: "duplicate_unique_property_exists",
                exception: "DuplicateUniquePropertyExistsException",
                description: "the same user \(name) appears more than once in the request")
        case .batchTooLarge(let count):
            illegalArgument(
                "Request body array size[\(count)] had almost reached or been greater than the upper range value[\(Directory.maximumBatchSize)]"
            )
        case .userNotFound: userNotFound
        case .userNotActivated: invalidGrant("user not activated")
        case .invalidPassword, .userHasNoPassword: invalidGrant("invalid password")
        case .clientIDMismatch: invalidGrant("client_id does not match")
        case .clientSecretMismatch: invalidGrant("client_secret does not match")
        case .invalidTTL: illegalArgument("ttl must be an integer from 0 to \(Directory.maximumTTLSeconds)")
        case .invalidCursor: illegalArgument("cursor is not valid")
        case .invalidLimit: illegalArgument("limit must be an integer from 1 to \(Directory.maximumPageSize)")
        case .countersExhausted(let counter): illegalArgument("the app has used up its \(counter) numbers")
        }
    }
}
