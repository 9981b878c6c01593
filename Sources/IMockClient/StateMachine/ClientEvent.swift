import IMockCore

/// What happens to the client: an API call, a socket or database result, what the server said
/// (as the connection's ``ClientWire`` read it), a timer.
/// Socket and database events carry the generation they were opened with; events of an older
/// generation are ignored, so nothing of an old connection or account reaches the new one (X2).
public enum ClientEvent: Sendable, Equatable {
    /// `login(userId, token)`; `offline` is ZIM's `isOfflineLogin` (Z5).
    case login(user: String, token: String, offline: Bool = false)
    /// `logout(unbindDeviceToken:)` (E8).
    case logout(unbindDeviceToken: Bool)
    /// `renewToken(token)` (E5, Z4); `callID` comes back in ``CanonicalCallback/renewTokenCompleted(callID:error:)``
    /// so each call gets its own reply, whatever order the replies come in.
    case renewToken(String, callID: String = "")
    /// Send a 1:1 text message; `localID` comes back in the completion.
    case send(localID: String, to: String, text: String)
    /// The local database of login `epoch` finished opening (nil error: opened).
    case databaseOpened(epoch: UInt64, error: ClientError?)
    /// Socket `generation` is open.
    case socketOpened(generation: UInt64)
    /// Socket `generation` closed or failed to open. `sessionEndCode` is what the connection's
    /// ``ClientWire`` read in the close code: the code of the kick, token error or refusal that
    /// ended the session (the client never reconnects after one, C9), nil for a drop.
    case socketClosed(generation: UInt64, sessionEndCode: Int?, reason: String)
    /// A message on socket `generation` could not be read (the connection's ``ClientWire``
    /// says why).
    case messageUnreadable(generation: UInt64, reason: String)
    /// The server said `input` on socket `generation`.
    case serverSaid(generation: UInt64, ServerInput)
    /// The shell stored offline message `messageId`; the client may ack it (C10).
    case messageStored(messageId: String)
    /// A timer fired.
    case timerFired(ClientTimer)
}

/// The client's timers. Scheduling one again replaces it.
public enum ClientTimer: String, Sendable, Hashable, CaseIterable {
    /// The login did not finish in time; also bounds each automatic connection attempt
    /// (socket open + the login accepted) of a logged-in user.
    case loginTimeout
    /// The back-off before the next reconnect attempt ended.
    case reconnect
    /// Time to ping.
    case keepAlive
    /// A ping got no `pong` within ``ClientOptions/pongTimeoutMs``: the connection is treated as dropped.
    case pongTimeout
}

/// An error reported to the app: a vendor code and a sentence.
public struct ClientError: Error, Sendable, Equatable {
    /// The code (vendor numbering of the profile, or the server's Easemob code).
    public var code: Int
    /// A sentence.
    public var message: String

    /// Creates an error.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }
}
