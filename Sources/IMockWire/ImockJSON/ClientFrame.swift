import IMockCore

/// A frame a client sends, parsed and checked. See `docs/PROTOCOL.md`.
public enum ClientFrame: Sendable, Equatable {
    /// `login`: log this connection in. Boxed: a login is rare, and its request inline would
    /// make every frame (a message's `send` too) several times larger to copy.
    indirect case login(id: String, LoginRequest)
    /// `ping`: answered by `pong`; allowed before login; `id` is optional.
    case ping(id: String?)
    /// `renewToken`: replace the session's token with a new one of the same user and app.
    case renewToken(id: String, token: String)
    /// `logout`: end the session; `unbindDeviceToken` asks to unbind the push token too.
    case logout(id: String, unbindDeviceToken: Bool)
    /// `devices`: list the user's logged-in devices.
    case devices(id: String)
    /// `send`: a 1:1 text message to user `to`.
    case send(id: String, to: String, text: String)
    /// `ack`: the client has stored offline message `messageId`; it is never delivered again.
    case ack(id: String, messageId: String)

    /// The request id, when the frame has one.
    public var requestID: String? {
        switch self {
        case .login(let id, _), .renewToken(let id, _), .logout(let id, _), .devices(let id),
            .send(let id, _, _), .ack(let id, _):
            id
        case .ping(let id): id
        }
    }
}
