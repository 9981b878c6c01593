/// A fixture app as it exists on the server: `org#app`, unique per run.
public struct ServerApp: Sendable, Equatable {
    /// The org part.
    public var org: String
    /// The app part.
    public var app: String

    /// `org#app`.
    public var key: String { "\(org)#\(app)" }
    /// `org/app`, as in REST and control-API paths.
    public var path: String { "\(org)/\(app)" }
    /// `org%23app`, as in query strings.
    public var query: String { "\(org)%23\(app)" }
}
