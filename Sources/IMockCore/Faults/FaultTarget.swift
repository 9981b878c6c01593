/// Whom a fault applies to.
public enum FaultTarget: Sendable, Equatable {
    /// Every connection logged in to the app (and logins to it).
    case app(AppKey)
    /// Every connection of the user (canonical, lower-case name) in the app.
    case user(AppKey, String)
    /// The one device resource of the user in the app.
    case resource(AppKey, user: String, resource: String)
    /// One connection, logged in or not.
    case connection(ConnectionID)

    /// Whether the fault applies to `subject`.
    public func matches(_ subject: FaultSubject) -> Bool {
        switch self {
        case .app(let app):
            subject.app == app
        case .user(let app, let user):
            subject.app == app && subject.user == user
        case .resource(let app, let user, let resource):
            subject.app == app && subject.user == user && subject.resource == resource
        case .connection(let id):
            subject.connection == id
        }
    }

    /// The app named by the target (nil for a connection target).
    public var app: AppKey? {
        switch self {
        case .app(let app), .user(let app, _), .resource(let app, _, _): app
        case .connection: nil
        }
    }
}

/// What the server knows about a connection when a fault is checked against it: the app, user
/// and resource of its session (or of the login it sent), when known.
public typealias FaultSubject = ConnectionSubject
