import IMockCommon
import IMockCore

/// The SDK connection state machine, pure: ``handle(_:nowMs:)`` takes an event and returns the
/// actions for the I/O shell, callbacks included. Logged in and connected are kept apart
/// (E1, E3, C2, O3, Z1): ``loginStatus`` and ``isConnected`` change independently. It speaks no
/// wire dialect: it sends `SessionCommand`s and hears ``ServerInput``s and what a close meant,
/// which the connection's ``ClientWire`` translates to and from its dialect.
///
/// ```
/// Logout ──login──▶ Logging[db → socket → login sent] ──accepted──▶ Logged·connected
///    ▲                   │ refused / close / timeout                    │ drop (recoverable)
///    │◀──────────────────┘                                              ▼
///    │◀── kick · token expired/invalid · gave up ── Logged·waiting ──timer──▶ Logged·opening
///    │◀── logged out (or local logout when offline)     ▲   attempt failed      │ login(autoLogin)
///                                                       └───────────────────────┘
/// ```
public struct ClientStateMachine: Sendable {
    /// The configuration.
    public let options: ClientOptions
    var phase: Phase = .loggedOut
    var random: SplitMix64
    var requestCounter: UInt64 = 0
    var socketGeneration: UInt64 = 0
    var liveSocket: UInt64?
    var loginEpoch: UInt64 = 0
    /// Reconnects scheduled so far (the next one's fixed wait, ``ReconnectPolicy/waits``).
    var reconnectsScheduled = 0
    /// The last user whose login reached the server; only they may log in offline (Z5).
    public internal(set) var lastOnlineUser: String?
    /// Why the last session ended, when it ended without the app asking.
    public internal(set) var lastEndReason: SessionEndReason?
    var nowMs: Int64 = 0
    var output: [ClientAction] = []

    /// Creates a logged-out client; `lastOnlineUser` restores the one remembered on disk (Z5).
    public init(options: ClientOptions, lastOnlineUser: String? = nil) {
        self.options = options
        self.random = SplitMix64(seed: options.randomSeed)
        self.lastOnlineUser = lastOnlineUser
    }

    /// Handles one event at clock time `nowMs`; returns what the shell must do, in order.
    public mutating func handle(_ event: ClientEvent, nowMs: Int64) -> [ClientAction] {
        self.nowMs = nowMs
        output = []
        switch event {
        case .login(let user, let token, let offline): login(user: user, token: token, offline: offline)
        case .logout(let unbind): logout(unbindDeviceToken: unbind)
        case .renewToken(let token, let callID): renewToken(token, callID: callID)
        case .send(let localID, let to, let text): send(localID: localID, to: to, text: text)
        case .databaseOpened(let epoch, let error): databaseOpened(epoch: epoch, error: error)
        case .socketOpened(let generation): socketOpened(generation: generation)
        case .socketClosed(let generation, let endCode, let reason):
            socketClosed(generation: generation, sessionEndCode: endCode, reason: reason)
        case .messageUnreadable(let generation, let reason):
            if generation == liveSocket { output.append(.ignoredMessage(reason: reason)) }
        case .serverSaid(let generation, let input): serverSaid(generation: generation, input)
        case .messageStored(let messageId): messageStored(messageId: messageId)
        case .timerFired(let timer): timerFired(timer)
        }
        return output
    }

    // MARK: Queries (synchronous, no callback: O5)

    /// Logout / Logging / Logged (O5).
    public var loginStatus: LoginStatus {
        switch phase {
        case .loggedOut: .logout
        case .loggingIn: .logging
        case .loggedIn: .logged
        }
    }

    /// Whether a user is logged in, connected or not (E1, C2).
    public var isLoggedIn: Bool { loginStatus == .logged }

    /// Whether the connection is up (E3, C2).
    public var isConnected: Bool {
        if case .loggedIn(let session) = phase, session.link == .connected { return true }
        return false
    }

    /// The logged-in user id (E7), nil when logged out or still logging in.
    public var currentUsername: String? {
        if case .loggedIn(let session) = phase { return session.user }
        return nil
    }

    /// The token in use, when logged in.
    public var currentToken: String? {
        if case .loggedIn(let session) = phase { return session.token }
        return nil
    }

    /// The token's expiry from the last accepted login or token renewal, nil for "never" or logged out.
    public var tokenExpiresAt: Int64? {
        if case .loggedIn(let session) = phase { return session.tokenExpiresAt }
        return nil
    }

    // MARK: Helpers

    var rules: ProfileRules { options.profile.rules }

    mutating func emit(_ callback: CanonicalCallback) {
        let records = options.profile.calls(for: callback).map {
            CallbackRecord(
                device: options.device.uuid, profile: options.profile, name: $0.name, arguments: $0.arguments,
                timeMs: nowMs)
        }
        output.append(.emit(EmittedCallback(canonical: callback, records: records)))
    }

    mutating func nextRequestID() -> String {
        requestCounter += 1
        return String(requestCounter)
    }

    mutating func openSocket(attempt: Int) {
        socketGeneration += 1
        liveSocket = socketGeneration
        emit(.connectionAttempt(attempt: attempt))
        output.append(.openSocket(generation: socketGeneration))
    }

    /// The WebSocket close code of a normal closure.
    static let normalCloseCode: UInt16 = 1000

    mutating func closeLiveSocket(code: UInt16 = Self.normalCloseCode) {
        guard let generation = liveSocket else { return }
        output.append(.closeSocket(generation: generation, code: code))
        liveSocket = nil
    }

    mutating func sendRequest(_ request: SessionCommand) {
        guard let generation = liveSocket else { return }
        output.append(.sendRequest(generation: generation, request))
    }

    func loginRequest(id: String, user: String, token: String, autoLogin: Bool) -> SessionCommand {
        .login(
            RequestTag(id),
            LoginRequest(
                appKey: options.appKey, user: user, token: token, device: options.device, autoLogin: autoLogin,
                sync: options.syncTypes))
    }
}

/// The login status of OpenIM's `getLoginStatus` (O5), shared by all profiles.
public enum LoginStatus: String, Sendable, Hashable {
    /// Not logged in.
    case logout = "Logout"
    /// A login is in flight.
    case logging = "Logging"
    /// Logged in (connected or not).
    case logged = "Logged"
}
