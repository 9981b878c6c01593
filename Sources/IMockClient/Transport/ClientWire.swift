import IMockCore
import IMockWire

/// How the reference client's frames travel on one connection. The state machine speaks only
/// ``ClientFrame`` and ``ServerFrame`` (the imock JSON protocol's words); a wire turns them into
/// the messages of one dialect and back. One instance per connection, loop-confined, so it may
/// keep the state its dialect needs (sequence numbers, pending acks, sync cursors).
public protocol ClientWire: AnyObject {
    /// The request target (path and query) of the WebSocket upgrade, given the endpoint's path.
    func upgradeTarget(endpointPath: String) -> String

    /// A frame of the state machine as messages to send; frames the wire answers by itself
    /// (without the server) come back in ``ClientWireOutput/frames``.
    func encode(_ frame: ClientFrame) -> ClientWireOutput

    /// A message from the server as frames for the state machine (a malformed one as a
    /// ``FrameError``), and messages the wire sends back at once (acks, pulls).
    func decode(_ message: WireMessage) -> ClientWireOutput

    /// True for a dialect that logs in during the upgrade (OpenIM): the shell reports the socket
    /// open at once, so the state machine sends its `login`, and connects when that frame's
    /// ``ClientWireOutput/connect`` names the upgrade target. Default: false.
    var opensAtLogin: Bool { get }

    /// The upgrade of an ``opensAtLogin`` wire succeeded: what the state machine hears (its
    /// `login.ok`) and what to send first.
    func handshakeSucceeded() -> ClientWireOutput

    /// The upgrade of an ``opensAtLogin`` wire was answered with `status` and `body` instead:
    /// the frames that refusal means (a `login.error`), or none for a drop the client retries.
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
    /// Frames for the state machine, in order.
    public var frames: [Result<ServerFrame, FrameError>]
    /// For an ``ClientWire/opensAtLogin`` wire: connect now, upgrading at this request target.
    public var connect: String?

    /// Creates an output.
    public init(send: [WireMessage] = [], frames: [Result<ServerFrame, FrameError>] = [], connect: String? = nil) {
        self.send = send
        self.frames = frames
        self.connect = connect
    }
}

/// The dialects the reference client speaks; ``ClientOptions/transport`` picks one.
public enum ClientTransport: String, Sendable, Hashable, CaseIterable {
    /// The imock JSON protocol at `/ws` (docs/PROTOCOL.md).
    case imockJSON = "imock-json"
    /// OpenIM's message gateway at `/openim/{org}/{app}` (docs/PROTOCOL-OPENIM.md), gob + gzip
    /// like the Go SDK, for devices with an OpenIM platform.
    case openIM = "openim"

    /// Whether a device of `platform` can speak it (the OpenIM gateway serves OpenIM platforms).
    public func serves(_ platform: DevicePlatform) -> Bool {
        switch self {
        case .imockJSON: true
        case .openIM: platform.openIMPlatformID != nil
        }
    }

    /// A wire for one new connection.
    public func makeWire() -> any ClientWire {
        switch self {
        case .imockJSON: ImockJSONClientWire()
        case .openIM: OpenIMClientWire()
        }
    }
}
