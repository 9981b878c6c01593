/// The live-connection state machine: dialect-neutral ``SessionCommand``s in,
/// ``SessionOutput``s out, no I/O and no wire format (the dialects in IMockWire translate).
///
/// It owns the live sessions per (app, user), the offline message queues, message ids, the
/// pending token timers and the distinct active users per app. The apps,
/// users and tokens stay in the ``Directory``, which every login-related command reads; the
/// only change the engine makes to it is revoking the token of a session that an OpenIM-style
/// kick invalidates. REST-driven commands (password change, disconnect …) do not need the
/// directory: the REST layer has already changed it.
///
/// All time comes in as `nowMs` from the server's ``Clock``.
public struct SessionEngine: Sendable {
    /// Engine-wide settings.
    public var configuration: SessionEngineConfiguration
    /// The device policy seam.
    public var decider: any LoginDecider

    var connections = ConnectionStates()
    var sessions: [SessionID: ConnectedSession] = [:]
    /// Each user's live sessions and last login device (one table: two tables of 15,000 users
    /// cost a slot each at a low load factor).
    var users = UserTable()
    var offlineQueues: [UserKey: OfflineQueue] = [:]
    var activeUsers: [AppKey: Set<String>] = [:]
    /// The messages in flight to each connection (``SessionEngine/InFlight``).
    var inFlight: [ConnectionID: InFlight] = [:]
    /// Connections whose devices confirm by their protocol's acks, not by transport.
    var confirmedByProtocol: Set<ConnectionID> = []
    var nextSessionSerial: UInt64 = 1
    var nextMessageSerial: UInt64 = 1
    /// Every live session's token timers, earliest first (one queue for the engine: the shell
    /// keeps one wake-up for all of them).
    var tokenTimers = TokenTimerQueue()
    /// What changed in the offline queues, message ids and active users since the server last
    /// took it (recording is off unless a store asks for it).
    public internal(set) var changeLog = DurableChangeLog()

    /// Creates an empty engine.
    public init(
        configuration: SessionEngineConfiguration = SessionEngineConfiguration(),
        decider: any LoginDecider = AcceptAllLoginDecider()
    ) {
        self.configuration = configuration
        self.decider = decider
    }

    // MARK: Connection commands

    /// A connection was accepted; it must `login` before anything but `ping`. `confirmsByTransport`:
    /// its device confirms live messages by its TCP's acknowledgements, which can still come
    /// after its session ended (the shell then releases them, ``releaseInFlight(of:)``); false:
    /// by its protocol's acks, which cannot, so the end of its session releases them at once
    /// (and a new login of the same device in the same step gets them).
    public mutating func connectionOpened(
        _ connection: ConnectionID, confirmsByTransport: Bool = true, nowMs: Int64
    ) -> [SessionOutput] {
        if connections[connection] == nil { connections[connection] = .awaitingLogin }
        if !confirmsByTransport { confirmedByProtocol.insert(connection) }
        return []
    }

    /// The connection is gone (peer close, network loss, idle timeout, or after an ``SessionOutput/end(_:_:)``).
    /// Its session ends silently: no output; its token timers are cancelled; the messages in
    /// flight to it that no device confirmed wait again for the next login, in place, as do
    /// offline messages it did not ack. A shell whose socket still lingers after the protocol's
    /// close (the peer's last acknowledgements may yet arrive) passes `keepingInFlight` and
    /// calls ``releaseInFlight(of:)`` when the socket is closed.
    public mutating func connectionClosed(
        _ connection: ConnectionID, keepingInFlight: Bool = false, nowMs: Int64
    ) -> [SessionOutput] {
        if !keepingInFlight { releaseInFlight(of: connection) }
        confirmedByProtocol.remove(connection)
        guard let state = connections.removeValue(forKey: connection) else { return [] }
        if case .loggedIn(let sessionID) = state { removeSession(sessionID) }
        return []
    }

    /// A command decoded from the connection's dialect. `faults` are the server-behaviour
    /// faults the shell rolled for this command.
    public mutating func handle(
        _ command: SessionCommand, on connection: ConnectionID, faults: CommandFaults = .none, nowMs: Int64,
        directory: inout Directory
    ) -> [SessionOutput] {
        guard let state = connections[connection], state != .closing else { return [] }
        if case .ping(let tag) = command { return [.reply(connection, tag, .pong(serverTime: nowMs))] }
        switch (state, command) {
        case (.awaitingLogin, .login(let tag, let request)):
            return login(connection, tag: tag, request: request, faults: faults, nowMs: nowMs, directory: &directory)
        case (.loggedIn, .login(let tag, _)):
            return [refuse(connection, tag, .alreadyLoggedIn)]
        case (.loggedIn(let sessionID), _):
            return loggedInRequest(command, session: sessionID, faults: faults, nowMs: nowMs, directory: &directory)
        default:
            return [refuse(connection, command.tag, .notLoggedIn)]
        }
    }

    private mutating func loggedInRequest(
        _ command: SessionCommand, session sessionID: SessionID, faults: CommandFaults, nowMs: Int64,
        directory: inout Directory
    ) -> [SessionOutput] {
        guard let session = sessions[sessionID] else { return [] }
        switch command {
        case .renewToken(let tag, let token):
            return renewToken(session, tag: tag, token: token, nowMs: nowMs, directory: directory)
        case .logout(let tag, let unbind):
            return logout(session, tag: tag, unbindDeviceToken: unbind, faults: faults, nowMs: nowMs)
        case .devices(let tag):
            let entries = sessionInfos(of: session.key).map(\.deviceEntry)
            return [.reply(session.connection, tag, .devices(entries))]
        case .send(let tag, let to, let text):
            return send(from: session, tag: tag, to: to, text: text, nowMs: nowMs, directory: directory)
        case .ack(let tag, let messageId):
            return ack(session, tag: tag, messageId: messageId)
        case .login, .ping:
            return []
        }
    }

    /// A refusal reply to the request `tag` on `connection`.
    func refuse(_ connection: ConnectionID, _ tag: RequestTag?, _ error: SessionError, field: String? = nil)
        -> SessionOutput
    {
        .reply(connection, tag, .refused(error, field: field))
    }

    // MARK: Reads

    /// The live sessions of `user` (folded to lower case) in `app`, earliest login first.
    public func sessions(of user: String, in app: AppKey) -> [SessionInfo] {
        guard let key = UserKey(app: app, rawUser: user) else { return [] }
        return sessionInfos(of: key)
    }

    /// Every live session of `app`, earliest login first.
    public func sessions(in app: AppKey) -> [SessionInfo] {
        sessionIDs(in: app).compactMap { sessions[$0]?.info }
    }

    /// The ids of every live session of `app`, earliest login first (without copying the
    /// sessions of other apps).
    func sessionIDs(in app: AppKey) -> [SessionID] {
        var ids: [SessionID] = []
        for (id, session) in sessions where session.key.app == app { ids.append(id) }
        return ids.sorted()
    }

    /// The messages waiting for `user` in `app` — offline ones, delivered by an offline sync
    /// or not, until acked — without those in flight to a live connection.
    public func offlineMessages(of user: String, in app: AppKey) -> [ChatMessage] {
        guard let key = UserKey(app: app, rawUser: user) else { return [] }
        return offlineQueues[key]?.messages ?? []
    }

    /// Every message of `user` in `app` that no device confirmed yet, waiting or in flight,
    /// oldest first: what a store keeps and what the queue's cap counts.
    public func undeliveredMessages(of user: String, in app: AppKey) -> [ChatMessage] {
        guard let key = UserKey(app: app, rawUser: user) else { return [] }
        return offlineQueues[key]?.allMessages ?? []
    }

    /// How many distinct users of `app` have logged in (the DAU/MAU count).
    public func activeUserCount(in app: AppKey) -> Int { activeUsers[app]?.count ?? 0 }

    /// Forgets the distinct active users of `app` (a new day or month).
    public mutating func resetActiveUsers(in app: AppKey) {
        activeUsers[app] = nil
        changeLog.record(.activeUsersReset(app))
    }

    /// The number of open connections the engine knows.
    public var connectionCount: Int { connections.count }

    func sessionInfos(of key: UserKey) -> [SessionInfo] {
        (users[key]?.live.all ?? []).compactMap { sessions[$0.id]?.info }
    }
}

/// What the engine knows about a connection.
enum ConnectionState: Sendable, Equatable {
    /// Open, not logged in.
    case awaitingLogin
    /// Logged in as this session.
    case loggedIn(SessionID)
    /// The engine sent a close; frames are ignored until the shell reports the close.
    case closing
}

/// What the engine keeps per user: the live sessions in login order (indexed for the device
/// policy) and the last login (which outlives its session: the policy compares a new login's
/// device with it).
struct UserSessions: Sendable {
    var live = LiveSessions()
    /// The last login's session and device (one reference, shared with the session while it
    /// lives: half the size of a copy of its device's identity in every user's slot).
    var lastLogin: LiveSession?

    /// The device of the last login.
    var lastLoginDevice: DeviceIdentity? { lastLogin?.device.identity }

    /// Nothing left to keep.
    var isEmpty: Bool { live.isEmpty && lastLogin == nil }
}

/// (app, canonical username).
struct UserKey: Hashable, Sendable {
    let app: AppKey
    let user: String

    init(app: AppKey, user: String) {
        self.app = app
        self.user = user
    }

    /// Folds `rawUser`; nil when it is not a valid username.
    init?(app: AppKey, rawUser: String) {
        guard let name = try? UserFields.normalizeUsername(rawUser) else { return nil }
        self.init(app: app, user: name)
    }

    /// The username and the app's name, not its org: equal keys hash equally, and the engine's
    /// tables hash a key a few times a message (the org told few keys apart).
    func hash(into hasher: inout Hasher) {
        hasher.combine(user)
        hasher.combine(app.app)
    }
}
