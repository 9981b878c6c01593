/// The live-connection state machine: commands in, ``SessionEffect``s out, no I/O.
///
/// It owns the live sessions per (app, user), the offline message queues, message ids, the
/// pending token timers, the distinct active users per app and the per-app faults. The apps,
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

    var connections: [ConnectionID: ConnectionState] = [:]
    var sessions: [SessionID: ConnectedSession] = [:]
    /// Session ids per user, in login order.
    var sessionsByUser: [UserKey: [SessionID]] = [:]
    var offlineQueues: [UserKey: [ChatMessage]] = [:]
    var activeUsers: [AppKey: Set<String>] = [:]
    var lastLoginDevice: [UserKey: DeviceIdentity] = [:]
    var faults: [AppKey: AppFaults] = [:]
    var nextSessionSerial: UInt64 = 1
    var nextMessageSerial: UInt64 = 1
    var nextTimerSerial: UInt64 = 1

    /// Creates an empty engine.
    public init(
        configuration: SessionEngineConfiguration = SessionEngineConfiguration(),
        decider: any LoginDecider = AcceptAllLoginDecider()
    ) {
        self.configuration = configuration
        self.decider = decider
    }

    // MARK: Connection commands

    /// A WebSocket connection was accepted; it must `login` before anything but `ping`.
    public mutating func connectionOpened(_ connection: ConnectionID, nowMs: Int64) -> [SessionEffect] {
        if connections[connection] == nil { connections[connection] = .awaitingLogin }
        return []
    }

    /// The connection is gone (peer close, network loss, idle timeout, or after a `.close`
    /// effect). Its session ends silently: no frames; its token timers are cancelled; offline
    /// messages it did not ack stay queued for the next login.
    public mutating func connectionClosed(_ connection: ConnectionID, nowMs: Int64) -> [SessionEffect] {
        guard let state = connections.removeValue(forKey: connection) else { return [] }
        guard case .loggedIn(let sessionID) = state else { return [] }
        return removeSession(sessionID)
    }

    /// A text frame arrived on the connection.
    public mutating func frameReceived(
        _ connection: ConnectionID, text: String, nowMs: Int64, directory: inout Directory
    ) -> [SessionEffect] {
        guard let state = connections[connection], state != .closing else { return [] }
        let frame: ClientFrame
        do {
            frame = try ClientFrameParser.parse(text)
        } catch {
            let id = ClientFrameParser.bestEffortRequestID(text)
            let reply = ServerFrame.error(
                id: id, code: error.code.rawValue, message: error.message, field: error.field)
            return [.send(connection, reply)]
        }
        if case .ping(let id) = frame { return [.send(connection, .pong(id: id, serverTime: nowMs))] }
        switch (state, frame) {
        case (.awaitingLogin, .login(let id, let request)):
            return login(connection, id: id, request: request, nowMs: nowMs, directory: &directory)
        case (.loggedIn, .login(let id, _)):
            return [requestError(connection, id: id, .alreadyLoggedIn, "this connection is already logged in")]
        case (.loggedIn(let sessionID), _):
            return loggedInRequest(frame, session: sessionID, nowMs: nowMs, directory: &directory)
        default:
            return [requestError(connection, id: frame.requestID, .notLoggedIn, "log in first")]
        }
    }

    private mutating func loggedInRequest(
        _ frame: ClientFrame, session sessionID: SessionID, nowMs: Int64, directory: inout Directory
    ) -> [SessionEffect] {
        guard let session = sessions[sessionID] else { return [] }
        switch frame {
        case .renewToken(let id, let token):
            return renewToken(session, id: id, token: token, nowMs: nowMs, directory: directory)
        case .logout(let id, let unbind):
            return logout(session, id: id, unbindDeviceToken: unbind, nowMs: nowMs)
        case .devices(let id):
            let entries = sessionInfos(of: session.key).map(\.deviceEntry)
            return [.send(session.connection, .devicesOK(id: id, devices: entries))]
        case .send(let id, let to, let text):
            return send(from: session, id: id, to: to, text: text, nowMs: nowMs, directory: directory)
        case .ack(let id, let messageId):
            return ack(session, id: id, messageId: messageId)
        case .login, .ping:
            return []
        }
    }

    func requestError(
        _ connection: ConnectionID, id: String?, _ code: ProtocolErrorCode, _ message: String, field: String? = nil
    )
        -> SessionEffect
    {
        .send(connection, .error(id: id, code: code.rawValue, message: message, field: field))
    }

    // MARK: Faults and reads

    /// Sets the faults of `app` (control API).
    public mutating func setFaults(_ faults: AppFaults, for app: AppKey) {
        self.faults[app] = faults
    }

    /// The faults of `app`.
    public func faults(for app: AppKey) -> AppFaults { faults[app] ?? AppFaults() }

    /// The live sessions of `user` (folded to lower case) in `app`, earliest login first.
    public func sessions(of user: String, in app: AppKey) -> [SessionInfo] {
        guard let key = UserKey(app: app, rawUser: user) else { return [] }
        return sessionInfos(of: key)
    }

    /// Every live session of `app`, earliest login first.
    public func sessions(in app: AppKey) -> [SessionInfo] {
        sessions.values.filter { $0.key.app == app }.sorted { $0.id < $1.id }.map(\.info)
    }

    /// The offline messages waiting for `user` in `app` (delivered or not, until acked).
    public func offlineMessages(of user: String, in app: AppKey) -> [ChatMessage] {
        guard let key = UserKey(app: app, rawUser: user) else { return [] }
        return offlineQueues[key] ?? []
    }

    /// How many distinct users of `app` have logged in (the DAU/MAU count).
    public func activeUserCount(in app: AppKey) -> Int { activeUsers[app]?.count ?? 0 }

    /// Forgets the distinct active users of `app` (a new day or month).
    public mutating func resetActiveUsers(in app: AppKey) { activeUsers[app] = nil }

    /// The number of open connections the engine knows.
    public var connectionCount: Int { connections.count }

    func sessionInfos(of key: UserKey) -> [SessionInfo] {
        (sessionsByUser[key] ?? []).compactMap { sessions[$0]?.info }
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
}

/// A logged-in connection.
struct ConnectedSession: Sendable {
    let id: SessionID
    let connection: ConnectionID
    let key: UserKey
    let device: LoginDevice
    let autoLogin: Bool
    var tokenID: UInt64
    var tokenIssuedAtMs: Int64
    var tokenExpiresAtMs: Int64?
    var willExpireTimer: TimerToken?
    var expiryTimer: TimerToken?

    var info: SessionInfo {
        SessionInfo(
            connection: connection, sessionID: id, app: key.app, user: key.user, device: device,
            autoLogin: autoLogin, tokenExpiresAtMs: tokenExpiresAtMs)
    }

    var liveSession: LiveSession { LiveSession(id: id, device: device) }

    var pendingTimers: [TimerToken] { [willExpireTimer, expiryTimer].compactMap { $0 } }
}
