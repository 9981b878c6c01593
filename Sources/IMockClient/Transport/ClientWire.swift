import IMockCore
import IMockWire

/// How the reference client talks on one connection: the client's mirror of a server
/// `WireDialect`. The state machine speaks no dialect: it sends `SessionCommand`s (tagged with
/// its request ids) and hears ``ServerInput``s and what a close meant; a wire turns those into
/// the messages of one dialect and back. One instance per connection, loop-confined, so it may
/// keep the state its dialect needs (sequence numbers, pending acks, sync cursors).
public protocol ClientWire: AnyObject {
    /// The request target (path and query) of the WebSocket upgrade, given the endpoint's path.
    func upgradeTarget(endpointPath: String) -> String

    /// A request of the state machine as messages to send; requests the wire answers by itself
    /// (without the server) come back as ``ClientWireOutput/inputs``.
    func encode(_ request: SessionCommand) -> ClientWireOutput

    /// A message from the server as what it says to the state machine (a malformed one as an
    /// ``UnreadableMessage``), and messages the wire sends back at once (acks, pulls).
    func decode(_ message: WireMessage) -> ClientWireOutput

    /// What a close with `code` (nil: the connection ended without a close frame) means in this
    /// dialect: the code of the session end it stands for (a kick, a token error, a refused
    /// login), which the client never recovers from, or nil for a drop it reconnects after.
    func sessionEndCode(ofClose code: UInt16?) -> Int?

    /// True for a dialect that logs in during the upgrade (OpenIM): the shell reports the socket
    /// open at once, so the state machine sends its `login`, and connects when that request's
    /// ``ClientWireOutput/connect`` names the upgrade target. Default: false.
    var opensAtLogin: Bool { get }

    /// The upgrade of an ``opensAtLogin`` wire succeeded: what the state machine hears and what
    /// to send first.
    func handshakeSucceeded() -> ClientWireOutput

    /// The upgrade of an ``opensAtLogin`` wire was answered with `status` and `body` instead:
    /// what that refusal means (a refused login), or nothing for a drop the client retries.
    func handshakeRefused(status: Int, body: [UInt8]) -> ClientWireOutput
}

extension ClientWire {
    public var opensAtLogin: Bool { false }

    public func handshakeSucceeded() -> ClientWireOutput { ClientWireOutput() }

    public func handshakeRefused(status: Int, body: [UInt8]) -> ClientWireOutput { ClientWireOutput() }
}

/// What a ``ClientWire`` step produced.
public struct ClientWireOutput: Sendable, Equatable {
    /// Messages to send on the connection, in order.
    public var send: [WireMessage]
    /// What the server said, for the state machine, in order.
    public var inputs: [Result<ServerInput, UnreadableMessage>]
    /// For an ``ClientWire/opensAtLogin`` wire: connect now, upgrading at this request target.
    public var connect: String?

    /// Creates an output.
    public init(send: [WireMessage] = [], inputs: [Result<ServerInput, UnreadableMessage>] = [], connect: String? = nil) {
        self.send = send
        self.inputs = inputs
        self.connect = connect
    }

    /// An output of what the server said (all of it readable), and messages to send.
    public init(send: [WireMessage] = [], said: [ServerInput]) {
        self.init(send: send, inputs: said.map { .success($0) })
    }

    /// An output reporting a server message the wire could not read.
    public static func unreadable(_ reason: String) -> ClientWireOutput {
        ClientWireOutput(inputs: [.failure(UnreadableMessage(reason: reason))])
    }
}

/// A server message a ``ClientWire`` could not read, and why.
public struct UnreadableMessage: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why, in the dialect's words.
    public var reason: String

    /// Creates the error.
    public init(reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// The dialects the reference client speaks; ``ClientOptions/transport`` picks one.
public enum ClientTransport: String, Sendable, Hashable, CaseIterable {
    /// The imock JSON protocol at `/ws` (docs/PROTOCOL.md).
    case imockJSON = "imock-json"
    /// OpenIM's message gateway at `/openim/{org}/{app}` (docs/PROTOCOL-OPENIM.md), gob + gzip
    /// like the Go SDK, for devices with an OpenIM platform.
    case openIM = "openim"
    /// Easemob / Agora Chat msync at `/websocket` (docs/PROTOCOL-MSYNC.md).
    case msync = "msync"

    /// Whether a device of `platform` can speak it (the OpenIM gateway serves OpenIM platforms,
    /// msync Easemob ones).
    public func serves(_ platform: DevicePlatform) -> Bool {
        switch self {
        case .imockJSON: true
        case .openIM: platform.openIMPlatformID != nil
        case .msync: platform.openIMPlatformID == nil
        }
    }

    /// A wire for one new connection.
    public func makeWire() -> any ClientWire {
        switch self {
        case .imockJSON: ImockJSONClientWire()
        case .openIM: OpenIMClientWire()
        case .msync: MsyncClientWire()
        }
    }
}
