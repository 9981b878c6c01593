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

    /// A dialect that logs in during the HTTP upgrade (OpenIM does) reads the login from the
    /// upgrade request (and may keep what it read: the same instance serves the connection);
    /// the others log in with a message (the default: ``UpgradeLogin/none``).
    mutating func login(forUpgrade request: UpgradeRequest) -> UpgradeLogin

    /// The HTTP answer, instead of the upgrade, to a login refused during the upgrade.
    func refusal(forUpgrade end: SessionEnd) -> UpgradeRefusal

    /// Whether the device said its app is in the background (OpenIM's `isBackground`); the
    /// default: never.
    var isInBackground: Bool { get }
    /// Messages sent as soon as the connection opens, before any other (SockJS's `o`; default none).
    var greeting: [WireMessage] { get }

    /// The server's clock, told before each ``decode(_:)`` and each encode: a dialect that puts
    /// server time on the wire by itself (msync's page and heartbeat timestamps) keeps it
    /// (default: ignored).
    mutating func observe(serverTimeMs: Int64)

    /// How the device confirms the chat messages pushed to it (docs/PROTOCOL.md § Delivery):
    /// by the peer's TCP acknowledging the frames that carried them (the default, for
    /// protocols whose live pushes have no ack), or by the protocol's own ack, which the
    /// dialect decodes into ``SessionCommand/ack(_:messageId:)`` (msync's page confirmation).
    var deliveryConfirmation: DeliveryConfirmation { get }

    /// The shortest silence after which the server may close the connection as idle, when the
    /// dialect's clients keep it alive less often than the server's idle timeout asks (msync's
    /// heartbeat comes after 30–60 s of silence); nil: the server's timeout (default).
    var minimumIdleTimeout: Duration? { get }
}

extension WireDialect {
    public func login(forUpgrade request: UpgradeRequest) -> UpgradeLogin { .none }

    public var isInBackground: Bool { false }

    public func refusal(forUpgrade end: SessionEnd) -> UpgradeRefusal {
        UpgradeRefusal(status: 401, contentType: "text/plain; charset=utf-8", body: Array(end.reason.utf8))
    }

    public var greeting: [WireMessage] { [] }

    public mutating func observe(serverTimeMs: Int64) {}

    public var deliveryConfirmation: DeliveryConfirmation { .transport }

    public var minimumIdleTimeout: Duration? { nil }
}

/// How a dialect's device confirms the chat messages pushed to it.
public enum DeliveryConfirmation: Sendable, Equatable {
    /// The peer's TCP acknowledged the bytes of the frame that carried it.
    case transport
    /// The protocol's own ack, decoded into ``SessionCommand/ack(_:messageId:)``.
    case `protocol`
}

/// The HTTP request that asks for a session's WebSocket, as a dialect sees it.
public struct UpgradeRequest: Sendable, Equatable {
    /// The path, without the query.
    public var path: String
    /// The query parameters, decoded, in order.
    public var query: [(name: String, value: String)]
    /// The header fields, in order.
    public var headers: [(name: String, value: String)]

    /// Creates a request.
    public init(path: String, query: [(name: String, value: String)], headers: [(name: String, value: String)]) {
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The first query value of `name`.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    public static func == (lhs: UpgradeRequest, rhs: UpgradeRequest) -> Bool {
        lhs.path == rhs.path && lhs.query.elementsEqual(rhs.query, by: ==) && lhs.headers.elementsEqual(rhs.headers, by: ==)
    }
}

/// What a dialect makes of an upgrade request.
public enum UpgradeLogin: Sendable, Equatable {
    /// Upgrade without logging in (the device logs in with a message).
    case none
    /// Log in with this command first; upgrade only when it is accepted.
    case login(SessionCommand)
    /// Answer this instead of upgrading (a malformed request).
    case refuse(UpgradeRefusal)
}

/// An HTTP answer a dialect gives instead of an upgrade, or — with ``overWebSocket`` — an
/// upgrade whose connection only carries the refusal and closes (OpenIM's `isMsgResp`).
public struct UpgradeRefusal: Error, Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The Content-Type of the body.
    public var contentType: String
    /// The body.
    public var body: [UInt8]
    /// When set, the server upgrades anyway, sends these messages, then closes.
    public var overWebSocket: WebSocketRefusal?

    /// Creates a refusal.
    public init(status: Int, contentType: String, body: [UInt8], overWebSocket: WebSocketRefusal? = nil) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.overWebSocket = overWebSocket
    }
}

/// A refusal said on an upgraded connection: messages, then a close.
public struct WebSocketRefusal: Sendable, Equatable {
    /// The messages, in order.
    public var messages: [WireMessage]
    /// The close that follows them.
    public var close: WireClose

    /// Creates the refusal.
    public init(messages: [WireMessage], close: WireClose) {
        self.messages = messages
        self.close = close
    }
}

/// One thing a dialect made of an incoming message.
public enum DialectInput: Sendable, Equatable {
    /// A command for the engine.
    case command(SessionCommand)
    /// A message the dialect answers by itself (e.g. an error for a malformed message).
    case reply(WireMessage)
    /// An answer to a device's pull of queued messages (an OpenIM 1002, an msync `SYNC` of a
    /// queue): faults see it as a page of the offline sync (``FaultEvent/syncPage``). The
    /// messages in `messageIds` (none for msync, whose device confirms by its next pull) are in
    /// flight to the connection until the device has the answer — its TCP acknowledged the
    /// answer's bytes, as for a live push — and wait again if the connection closes first
    /// (``SessionEngine/handedOver(_:messageIDs:)``). Acking them when the answer is made would
    /// lose them with an answer that never arrives.
    case replyCarrying(WireMessage, messageIds: [String])
    /// Close the connection (e.g. a message the protocol does not allow).
    case close(WireClose)
}
