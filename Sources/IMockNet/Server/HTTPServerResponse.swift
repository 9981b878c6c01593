/// What a responder does with a request.
public enum HTTPServerResponse {
    /// Answer with this response.
    case respond(HTTPResponse)
    /// Upgrade to WebSocket (when the request is a valid RFC 6455 upgrade; otherwise the client
    /// gets the handshake error) and hand the connection to `delegate`. A responder that already
    /// checked the request (``WebSocketHandshake/validateUpgrade(_:)``) passes the result as
    /// `validated`, so the check (a SHA-1 and two base64 passes, about 22,000 instructions) is
    /// not made twice.
    case upgradeToWebSocket(
        delegate: any WebSocketDelegate, extraHeaders: HTTPHeaders = HTTPHeaders(),
        validated: WebSocketHandshake.ServerUpgrade? = nil)
    /// Send `head`'s status and headers (its body is ignored), then keep the connection for a
    /// body the application writes over time through the `HTTPStreamWriter` handed to
    /// `delegate` (chunked over HTTP/1.1). The connection closes when the stream ends. A HEAD
    /// request gets the head only and the delegate is never opened.
    case stream(head: HTTPResponse, delegate: any HTTPStreamDelegate)
    /// Answer later: `start` is called at once with the ``HTTPDeferredReply`` that sends the
    /// response when the application has it (work done off the loop). The connection reads no
    /// further request until then, so pipelined requests are still answered in order.
    case deferred(start: (HTTPDeferredReply) -> Void)
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
