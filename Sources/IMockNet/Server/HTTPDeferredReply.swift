/// The answer to one request that a responder gives later (``HTTPServerResponse/deferred(start:)``).
///
/// It may be handed to any thread; ``send(_:)`` is called on the connection's loop thread (from a
/// task given to `EventLoop.execute`) and only once. A connection that closed meanwhile drops
/// the response.
public final class HTTPDeferredReply: @unchecked Sendable {
    /// The loop of the connection the request came on.
    public let loop: EventLoop
    private let deliver: (HTTPResponse) -> Void
    private let awaited: () -> Bool
    private var sent = false

    init(loop: EventLoop, awaited: @escaping () -> Bool, deliver: @escaping (HTTPResponse) -> Void) {
        self.loop = loop
        self.awaited = awaited
        self.deliver = deliver
    }

    /// Whether the response is still wanted: not sent yet and the connection open (closed by
    /// the server, say, at shutdown). The connection reads nothing while the answer is worked
    /// on, so a client that went away is noticed only once the answer is written. (On the loop.)
    public var isAwaited: Bool {
        precondition(loop.isCallerAllowed, "HTTPDeferredReply read off its event loop")
        return !sent && awaited()
    }

    /// Sends `response` as the answer; later calls do nothing.
    public func send(_ response: HTTPResponse) {
        precondition(loop.isCallerAllowed, "HTTPDeferredReply sent off its event loop")
        guard !sent else { return }
        sent = true
        deliver(response)
    }
}
