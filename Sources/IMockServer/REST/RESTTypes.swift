import IMockCore
import IMockNet

/// Read-only view of who is online, supplied by the session layer.
public protocol PresenceView: Sendable {
    /// The live sessions of `username` (canonical) in `app`, in login order.
    func sessions(of username: String, in app: AppKey) -> [DeviceEntry]

    /// The live connections of `username` (canonical) in `app`, in login order, with their
    /// platform and background flag (OpenIM's online status).
    func connections(of username: String, in app: AppKey) -> [PresenceConnection]
}

extension PresenceView {
    /// Nobody is online (views that only list devices).
    public func connections(of username: String, in app: AppKey) -> [PresenceConnection] { [] }
}

/// One live connection of a user, as OpenIM's online status shows it.
public struct PresenceConnection: Sendable, Equatable {
    /// The connection.
    public var connection: ConnectionID
    /// Its device's platform.
    public var platform: DevicePlatform
    /// Whether its app said it is in the background (OpenIM `isBackground`).
    public var isBackground: Bool

    /// Creates the value.
    public init(connection: ConnectionID, platform: DevicePlatform, isBackground: Bool) {
        self.connection = connection
        self.platform = platform
        self.isBackground = isBackground
    }
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
    /// How the handler gets password hashes it needs (``PasswordWork``).
    public var passwords: PasswordWork = .inline

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

/// What a handler returns: the response and the effects on live sessions — or, first, the
/// password hashes it needs derived off the loop (``PasswordWork/offLoop``).
public struct RESTOutcome: Sendable, Equatable {
    /// The HTTP response to send.
    public var response: HTTPResponse
    /// Changes live sessions must feel, applied to the domain after the response, in order.
    public var effects: [DomainChange]
    /// Hashes to derive before the handler can answer: the handler changed nothing, and is run
    /// again with ``PasswordWork/derived(_:)`` holding their results in the same order (nil
    /// where nothing is to be derived). Empty for an answer.
    public var derivations: [PasswordDerivation?]

    /// Creates an outcome.
    public init(response: HTTPResponse, effects: [DomainChange] = []) {
        self.response = response
        self.effects = effects
        derivations = []
    }

    /// The outcome that asks for `derivations` first. Its response is a 500 that only a server
    /// which ignored the request for work would send.
    public init(deriving derivations: [PasswordDerivation?], nowMs: Int64) {
        response = RESTError(
            status: 500, error: "internal_error", exception: "IllegalStateException",
            description: "password hashes were asked for and not derived"
        ).response(nowMs: nowMs)
        effects = []
        self.derivations = derivations
    }
}

/// Where a REST handler's password hashes come from. Deriving one costs about 0.3 ms of
/// PBKDF2, so a batch registration of 60 would hold the event loop — and every session on
/// it — for tens of milliseconds; the server derives them on its `WorkerPool` instead.
public enum PasswordWork: Sendable, Equatable {
    /// Hash while handling (tests, and any caller of ``RESTAPI/handle(_:domain:nowMs:presence:scheme:)``).
    case inline
    /// Ask for the hashes first (``RESTOutcome/derivations``); the server runs the handler again.
    case offLoop
    /// The hashes asked for, derived, in the order they were asked for.
    case derived([PasswordHash?])
}

/// A REST handler: runs on the server's loop thread with the domain; the stored side changes
/// in place, the changes live sessions must feel come back as ``RESTOutcome/effects``.
public typealias RESTHandler = @Sendable (inout Domain, RESTRequest) -> RESTOutcome

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
