import IMockCore

/// A vendor-neutral callback of the client. Profiles render each as their SDK's callbacks.
public enum CanonicalCallback: Sendable, Equatable {
    /// The local database of `user` finished opening, also on failure (E2, C5).
    case databaseOpened(user: String, error: ClientError?)
    /// A connection attempt starts; attempt 0 is the login's own, 1… are reconnects (O2).
    case connectionAttempt(attempt: Int)
    /// A connection attempt failed (O2 `onConnectFailure`).
    case connectionAttemptFailed(ClientError)
    /// The connection is up (login or reconnect accepted) (E3, C2, O2, Z1, Z2).
    case connected(reconnected: Bool)
    /// A recoverable drop: still logged in, reconnecting by itself (C2, Z2).
    case connectionLost
    /// A login attempt stopped before success (before the failed completion; Z: Disconnected).
    case loginAborted(ClientError)
    /// The login call completes (nil error: online login succeeded) (E3, O3).
    case loginCompleted(user: String, error: ClientError?)
    /// The session ended for a reason the app must handle; logged out, no reconnect (C6, C9).
    case sessionEnded(SessionEndReason, wasConnected: Bool)
    /// The logout call completes; `loggedOut` false when it failed and the user stays logged in (E8).
    case logoutCompleted(error: ClientError?, loggedOut: Bool)
    /// The token expires soon (E5, C8, Z4).
    case tokenWillExpire(expiresAt: Int64, remainingMs: Int64)
    /// The `renewToken` call `callID` completes (E5); also with an error when the connection
    /// drops or the session ends before the server answered.
    case renewTokenCompleted(callID: String, error: ClientError?)
    /// Offline messages follow (C10; never when nothing waits).
    case offlineSyncStarted(count: Int)
    /// All offline messages arrived (C10).
    case offlineSyncFinished
    /// Data sync of `type` began (C11).
    case dataSyncStarted(SyncType)
    /// Data sync of `type` ended: success, failure or disconnect (E4, C11).
    case dataSyncFinished(SyncType, error: ClientError?)
    /// A message arrived.
    case messageReceived(ChatMessage, offline: Bool)
    /// A send completes.
    case sendCompleted(localID: String, messageId: String?, error: ClientError?)
}

/// Why a session ended without the app asking (C6, C8, C9, O6, O7, Z2–Z4).
public enum SessionEndReason: Sendable, Equatable {
    /// A kick with this code (206, 207, 214, 216, 217, 220, 305, 8, 202, OpenIM 2002 …);
    /// `by` is the new device for 206 / 220.
    case kicked(code: Int, by: KickedBy?)
    /// The token expired (108).
    case tokenExpired
    /// The token stopped being valid (104 on a reconnect).
    case tokenInvalid(ClientError)
    /// The reconnect gave up after the policy's last attempt (Z2).
    case reconnectGaveUp
}
