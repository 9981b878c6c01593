import IMockCore

/// One vendor's wire protocol on one connection: a codec plus the connection's state. It
/// decodes the messages a device sends into the engine's ``SessionCommand``s and encodes the
/// engine's replies, pushes and ends into messages of its protocol. The engine never sees a
/// wire format (docs/ARCHITECTURE.md § Adding a dialect).
public protocol WireDialect: Sendable {
    /// A short name for logs, the journal and session listings (`imock`, `msync`, `openim`).
    var name: String { get }

    /// What one incoming message means: commands for the engine, replies the dialect answers by
    /// itself (a malformed message), or a close.
    mutating func decode(_ message: WireMessage) -> [DialectInput]

    /// The messages for a reply to the request `tag`.
    mutating func encode(reply: SessionReply, tag: RequestTag?) -> [WireMessage]

    /// The messages for something the server sends unasked.
    mutating func encode(push: SessionPush) -> [WireMessage]

    /// How the session ends on the wire: the goodbye messages, then the close.
    mutating func encode(end: SessionEnd) -> (messages: [WireMessage], close: WireClose)
}

/// One thing a dialect made of an incoming message.
public enum DialectInput: Sendable, Equatable {
    /// A command for the engine.
    case command(SessionCommand)
    /// A message the dialect answers by itself (e.g. an error for a malformed message).
    case reply(WireMessage)
    /// Close the connection (e.g. a message the protocol does not allow).
    case close(WireClose)
}
