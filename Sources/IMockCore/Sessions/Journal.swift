/// One record of what the server sent that matters to a test: login results, kicks, token
/// events and closes (the control API's journal, docs/CONTROL-API.md).
public struct JournalEntry: Sendable, Equatable {
    /// When, on the server's clock.
    public var atMs: Int64
    /// To which connection.
    public var connection: ConnectionID
    /// The app of the connection's session or login attempt, when known.
    public var app: AppKey?
    /// The user, when known.
    public var user: String?
    /// The resource of the session, when logged in.
    public var resource: String?
    /// What was sent.
    public var event: JournalEvent
    /// The wire dialect of the connection (`imock`, `msync`, `openim` …), filled in by the shell
    /// that knows it (the engine does not know dialects); nil when unknown.
    public var dialect: String?

    /// Creates an entry.
    public init(
        atMs: Int64, connection: ConnectionID, app: AppKey?, user: String?, resource: String?, event: JournalEvent,
        dialect: String? = nil
    ) {
        self.atMs = atMs
        self.connection = connection
        self.app = app
        self.user = user
        self.resource = resource
        self.event = event
        self.dialect = dialect
    }

    /// An entry about `subject`.
    public init(atMs: Int64, subject: JournalSubject, event: JournalEvent) {
        self.init(
            atMs: atMs, connection: subject.connection, app: subject.app, user: subject.user, resource: subject.resource,
            event: event)
    }
}

/// Whose connection a journal entry is about.
public typealias JournalSubject = ConnectionSubject

/// What a ``JournalEntry`` records: the meaning of what was sent, whatever the dialect (the
/// control API renders it in the imock protocol's vocabulary).
public enum JournalEvent: Sendable, Equatable {
    /// A login was accepted.
    case loginAccepted(RequestTag, resource: String, tokenExpiresAt: Int64?, serverTime: Int64)
    /// A login was refused.
    case loginRefused(RequestTag, SessionError)
    /// A request was refused by a limit every dialect shares (a text too long, a full queue):
    /// docs/PROTOCOL.md § Limits.
    case refused(RequestTag, SessionError)
    /// A session was kicked.
    case kicked(code: Int, reason: String, by: KickedBy?)
    /// The token expires soon.
    case tokenWillExpire(expiresAt: Int64)
    /// The token expired.
    case tokenExpired
    /// A close the server sent (its code as the dialect chose it).
    case closed(code: UInt16, reason: String)
}
