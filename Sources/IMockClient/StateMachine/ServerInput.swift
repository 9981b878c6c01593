import IMockCore

/// What the server said on a connection, in no dialect's words: the connection's ``ClientWire``
/// decodes its messages into these, as a server dialect decodes a device's into
/// `SessionCommand`s. The client's mirror of the engine's `SessionOutput`: replies, pushes and
/// session ends, with codes as the vendor numbers the client reports (``ClientError``).
public enum ServerInput: Sendable, Equatable {
    /// The answer to the request with `tag` (nil: a pong to a ping without one, or a refusal
    /// of no particular request).
    case reply(RequestTag?, ServerReply)
    /// Something the server sends unasked.
    case push(ServerPush)
    /// The server ends the session; the connection closes after it.
    case end(ServerEnd)
}

/// The answer to one request.
public enum ServerReply: Sendable, Equatable {
    /// The login is accepted under `resource`.
    case loginAccepted(resource: String, tokenExpiresAt: Int64?, serverTime: Int64)
    /// The login is refused; the server closes the connection.
    case loginRefused(ClientError)
    /// The answer to a ping, with the server's clock (0 when the dialect carries none).
    case pong(serverTime: Int64)
    /// The new token is in force.
    case tokenRenewed(tokenExpiresAt: Int64?)
    /// The logout is done.
    case loggedOut
    /// The user's logged-in devices.
    case devices([DeviceEntry])
    /// The message was accepted with the server's id.
    case sent(messageId: String, timestamp: Int64)
    /// The offline message is confirmed.
    case acked
    /// The request was refused; `field` names the request's parameter at fault, if one is.
    case refused(ClientError, field: String?)
}

/// What the server sends unasked, short of ending the session.
public enum ServerPush: Sendable, Equatable {
    /// The token expires at `expiresAt`; renew it.
    case tokenWillExpire(expiresAt: Int64)
    /// `count` offline messages follow.
    case offlineStart(count: Int)
    /// A 1:1 text message, live or offline.
    case message(ChatMessage)
    /// All offline messages were sent.
    case offlineFinish
    /// Data sync of a type begins.
    case syncStart(SyncType)
    /// Data sync of a type ended, with an error when it could not finish.
    case syncFinish(SyncType, error: ClientError?)
}

/// How the server ends a session, said before the close.
public enum ServerEnd: Sendable, Equatable {
    /// A kick (or a token problem told as one) with its code; `by` is the device that took the
    /// place, when there is one.
    case kicked(code: Int, reason: String, by: KickedBy?)
    /// The token expired.
    case tokenExpired
}
