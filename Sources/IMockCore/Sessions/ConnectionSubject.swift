/// Whose connection something is about — a journal entry, a fault check: the connection, and the
/// app, user and resource of its session (or of the login it sent) when known.
public struct ConnectionSubject: Sendable, Equatable {
    /// The connection.
    public var connection: ConnectionID
    /// The app, when known.
    public var app: AppKey?
    /// The user, when known.
    public var user: String?
    /// The resource, when logged in.
    public var resource: String?

    /// Creates a subject.
    public init(connection: ConnectionID, app: AppKey? = nil, user: String? = nil, resource: String? = nil) {
        self.connection = connection
        self.app = app
        self.user = user
        self.resource = resource
    }
}
