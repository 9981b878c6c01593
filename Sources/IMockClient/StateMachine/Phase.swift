import IMockCore

/// Where the client is: logged out, logging in, or logged in with a connection in some state.
enum Phase: Sendable, Equatable {
    case loggedOut
    case loggingIn(LoginInFlight)
    case loggedIn(Session)
}

/// A login call in flight.
struct LoginInFlight: Sendable, Equatable {
    var user: String
    var token: String
    var offline: Bool
    /// Further login calls that joined this one (O4 `.join`); each gets its own completion.
    var joined: Int = 0
    var step: LoginStep = .openingDatabase
}

/// The steps of a login: the database opens first so `onDatabaseOpened` precedes connected (C1).
enum LoginStep: Sendable, Equatable {
    case openingDatabase
    case openingSocket
    case awaitingReply(id: String)
}

/// A logged-in user.
struct Session: Sendable, Equatable {
    var user: String
    var token: String
    var tokenExpiresAt: Int64?
    var resource: String?
    var link: Link
    /// False after an offline login (Z5) until the server first accepts its login.
    var everConnected: Bool
    /// `renewToken` requests waiting for their reply, by request id.
    var pendingRenewals: [String: PendingRenewal] = [:]
    /// `send` requests waiting for their reply: request id → local id.
    var pendingSends: [String: String] = [:]
    var pendingLogout: PendingLogout?
    /// A ping went out and no `pong` came back yet; the `pongTimeout` timer runs.
    var awaitingPong = false
    var inOfflineSync = false
    var openDataSyncs: [SyncType] = []
}

/// The connection of a logged-in user.
enum Link: Sendable, Equatable {
    case connected
    /// Waiting for the reconnect timer before attempt `attempt` (1-based).
    case waiting(attempt: Int)
    case opening(attempt: Int)
    case awaitingReply(attempt: Int, id: String)

    var attempt: Int {
        switch self {
        case .connected: 0
        case .waiting(let attempt), .opening(let attempt), .awaitingReply(let attempt, _): attempt
        }
    }
}

/// A `renewToken` request waiting for its reply: the new token and the call it answers.
struct PendingRenewal: Sendable, Equatable {
    var token: String
    var callID: String
}

/// A `logout` request waiting for its reply.
struct PendingLogout: Sendable, Equatable {
    var id: String
    var unbindDeviceToken: Bool
}
