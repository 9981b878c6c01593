/// What a responder does with a request.
public enum HTTPServerResponse {
    /// Answer with this response.
    case respond(HTTPResponse)
    /// Upgrade to WebSocket (when the request is a valid RFC 6455 upgrade; otherwise the client
    /// gets the handshake error) and hand the connection to `delegate`.
    case upgradeToWebSocket(delegate: any WebSocketDelegate, extraHeaders: HTTPHeaders = HTTPHeaders())
}

/// Facts about the connection a request came on.
public struct HTTPRequestContext: Sendable {
    /// The connection's process-wide id.
    public var connectionID: UInt64
    /// The client's address.
    public var peer: SocketAddress?
    /// Whether the connection is TLS.
    public var isSecure: Bool
}

/// Answers requests on the loop thread.
public typealias HTTPResponder = (HTTPRequest, HTTPRequestContext) -> HTTPServerResponse
