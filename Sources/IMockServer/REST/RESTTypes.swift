import IMockCore
import IMockNet

/// The mutable state REST handlers work on; owned by the server's loop thread.
public struct RESTState: Sendable, Equatable {
    /// Apps, users and tokens.
    public var directory: Directory
    /// Per-app request counters for the REST rate limit; not part of stored state.
    public var rateLimiter: RateLimiter

    /// Wraps a directory.
    public init(directory: Directory, rateLimiter: RateLimiter = RateLimiter()) {
        self.directory = directory
        self.rateLimiter = rateLimiter
    }
}

/// Read-only view of who is online, supplied by the session layer.
public protocol PresenceView: Sendable {
    /// The live sessions of `username` (canonical) in `app`, in login order.
    func sessions(of username: String, in app: AppKey) -> [DeviceEntry]
}

/// A presence view in which nobody is online (REST tests without sessions).
public struct NoPresence: PresenceView {
    /// Creates the empty view.
    public init() {}
    /// Always empty.
    public func sessions(of username: String, in app: AppKey) -> [DeviceEntry] { [] }
}

/// A REST call as a handler sees it.
public struct RESTRequest: Sendable {
    /// The parsed HTTP request.
    public var http: HTTPRequest
    /// Path parameters by the names used in the route pattern (`org`, `app`, `username`, `resource`).
    public var pathParameters: [String: String]
    /// The current time (from the server's ``Clock``).
    public var nowMs: Int64
    /// Who is online.
    public var presence: any PresenceView
    /// `http` or `https`, for the `uri` field of envelopes.
    public var scheme: String

    /// Creates a request.
    public init(
        http: HTTPRequest, pathParameters: [String: String], nowMs: Int64,
        presence: any PresenceView = NoPresence(), scheme: String = "http"
    ) {
        self.http = http
        self.pathParameters = pathParameters
        self.nowMs = nowMs
        self.presence = presence
        self.scheme = scheme
    }

    /// The full request URL without the query, e.g. `http://localhost:8080/acme/chat/users`.
    var uri: String { "\(scheme)://\(http.headers["Host"] ?? "localhost")\(http.path)" }
}

/// Something a REST call asks the server to do to live sessions (executed by the server).
public enum RESTEffect: Sendable, Equatable {
    /// Kick every device of the user (`resource` nil) or one device, code 217.
    case disconnectUser(AppKey, username: String, resource: String?)
    /// The user was deleted: kick every device with 207.
    case userDeleted(AppKey, username: String)
    /// The password changed: kick every device with 216 (old tokens are already refused).
    case passwordChanged(AppKey, username: String)
    /// The user was banned: kick every device with 305.
    case userDeactivated(AppKey, username: String)
}

/// What a handler returns: the response and the effects on live sessions.
public struct RESTOutcome: Sendable, Equatable {
    /// The HTTP response to send.
    public var response: HTTPResponse
    /// Effects to execute after the state change, in order.
    public var effects: [RESTEffect]

    /// Creates an outcome.
    public init(response: HTTPResponse, effects: [RESTEffect] = []) {
        self.response = response
        self.effects = effects
    }
}

/// A REST handler: runs on the server's single thread with the mutable state.
public typealias RESTHandler = @Sendable (inout RESTState, RESTRequest) -> RESTOutcome

/// One route: method, pattern with `{name}` segments, handler.
public struct RESTRoute: Sendable {
    /// The HTTP method, e.g. `POST`.
    public let method: String
    /// The path pattern, e.g. `/{org}/{app}/users/{username}`.
    public let pattern: String
    /// The handler.
    public let handler: RESTHandler

    /// Creates a route.
    public init(method: String, pattern: String, handler: @escaping RESTHandler) {
        self.method = method
        self.pattern = pattern
        self.handler = handler
    }
}
