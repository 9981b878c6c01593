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
}

/// What a ``ClientWire`` step produced.
public struct ClientWireOutput: Sendable, Equatable {
    /// Messages to send on the connection, in order.
    public var send: [WireMessage]
    /// Frames for the state machine, in order.
    public var frames: [Result<ServerFrame, FrameError>]

    /// Creates an output.
    public init(send: [WireMessage] = [], frames: [Result<ServerFrame, FrameError>] = []) {
        self.send = send
        self.frames = frames
    }
}

/// The dialects the reference client speaks; ``ClientOptions/transport`` picks one.
public enum ClientTransport: String, Sendable, Hashable, CaseIterable {
    /// The imock JSON protocol at `/ws` (docs/PROTOCOL.md).
    case imockJSON = "imock-json"

    /// A wire for one new connection.
    public func makeWire() -> any ClientWire {
        switch self {
        case .imockJSON: ImockJSONClientWire()
        }
    }
}
