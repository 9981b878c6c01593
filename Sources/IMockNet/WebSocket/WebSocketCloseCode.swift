/// A WebSocket close status code (RFC 6455 §7.4).
///
/// Any `UInt16` can be represented; ``isValidOnWire`` tells whether a code may appear in
/// a Close frame. Applications use 3000–4999 (imock sends 4000 + n, e.g. 4206).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The numeric code.
    public var rawValue: UInt16

    /// Wraps any numeric code.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Wraps any numeric code.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection has been fulfilled.
    public static let normalClosure = WebSocketCloseCode(1000)
    /// 1001: the endpoint is going away (server shutdown, page navigation).
    public static let goingAway = WebSocketCloseCode(1001)
    /// 1002: the peer violated the protocol.
    public static let protocolError = WebSocketCloseCode(1002)
    /// 1003: the endpoint cannot accept this kind of data.
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// 1005: reported locally when a Close frame carried no code; never sent.
    public static let noStatusReceived = WebSocketCloseCode(1005)
    /// 1006: reported locally when the connection dropped without a closing handshake; never sent.
    public static let abnormalClosure = WebSocketCloseCode(1006)
    /// 1007: a text message (or close reason) was not valid UTF-8.
    public static let invalidFramePayloadData = WebSocketCloseCode(1007)
    /// 1008: a message violated the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(1008)
    /// 1009: a frame or message was too big to process.
    public static let messageTooBig = WebSocketCloseCode(1009)
    /// 1010: the client expected an extension the server did not negotiate.
    public static let mandatoryExtension = WebSocketCloseCode(1010)
    /// 1011: the server hit an unexpected condition.
    public static let internalError = WebSocketCloseCode(1011)

    /// Whether the code may be sent in, or accepted from, a Close frame.
    ///
    /// Valid: 1000–1003, 1007–1011, the IANA-registered 1012–1014 (service restart,
    /// try again later, bad gateway; accepted as Autobahn does) and 3000–4999.
    /// Invalid: everything below 1000, 1004 (reserved), 1005 and 1006 (local-only),
    /// 1015 (TLS failure, local-only), the unassigned 1016–2999 and 5000 and above.
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The number, e.g. `1000`.
    public var description: String { String(rawValue) }
}
