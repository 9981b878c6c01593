/// Serves HTTP/1.1 on one connection: parses requests, answers them in order, enforces the
/// header, body and idle deadlines, and hands the connection over on a WebSocket upgrade or to
/// a streamed response (`HTTPStreamWriter`).
///
/// Deadlines cover a whole phase, not a single read: a client that sends its head one byte at a
/// time is still cut off when the header timeout passes since the phase began.
final class HTTPConnectionHandler: ConnectionHandler {
    private enum Phase { case header, body, idle }

    private let configuration: HTTPServerConfiguration
    /// The server's WebSocket settings, shared by every connection it upgrades.
    private let webSocketSettings: WebSocketSettings
    /// The client's address, as `accept` reported it.
    private let peer: SocketAddress?
    private let responder: HTTPResponder
    private var parser: HTTPRequestParser
    private var deadline: (phase: Phase, timer: LoopTimerID)?
    private var isFinishing = false
    /// The streamed response this connection carries, once it left request/response mode.
    private var stream: HTTPStreamWriter?
    /// Whether a request's answer is being worked on off the loop (`HTTPServerResponse.deferred`).
    private var isAwaitingReply = false

    init(
        configuration: HTTPServerConfiguration, webSocketSettings: WebSocketSettings, peer: SocketAddress?,
        responder: @escaping HTTPResponder
    ) {
        self.configuration = configuration
        self.webSocketSettings = webSocketSettings
        self.peer = peer
        self.responder = responder
        self.parser = HTTPRequestParser(limits: configuration.limits)
    }

    func connectionDidBecomeActive(_ connection: Connection) {
        setDeadline(.header, on: connection)
    }

    func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        guard !isFinishing else { return }
        parser.feed(bytes)
        answerBufferedRequests(on: connection)
    }

    /// Answers the requests the parser holds, in order, until one is answered later or more
    /// bytes are needed.
    private func answerBufferedRequests(on connection: Connection) {
        while connection.isOpen, !isFinishing, !isAwaitingReply {
            switch parser.next() {
            case .needMore:
                updateDeadline(on: connection)
                return
            case .expectContinue:
                connection.write(HTTPResponse.continue100)
            case .error(let error):
                finish(connection, with: configuration.transportErrorResponse(error))
                return
            case .request(let request):
                // Each request's phases start anew: a next head that began in the same read as
                // this request's end gets a fresh header deadline, not the one of this head.
                cancelDeadline(on: connection)
                if handle(request, on: connection) { return }
            }
        }
    }

    /// A streamed response ends properly (its last chunk) before the server closes the socket.
    func serverWillShutDown(_ connection: Connection) {
        stream?.close()
    }

    func connectionDidClose(_ connection: Connection, error: (any Error)?) {
        cancelDeadline(on: connection)
        stream?.connectionClosed()
        stream = nil
    }

    /// Answers one request; returns true when the connection left HTTP (upgrade or close).
    private func handle(_ request: HTTPRequest, on connection: Connection) -> Bool {
        let context = HTTPRequestContext(connectionID: connection.id, peer: peer, isSecure: connection.isSecure)
        switch responder(request, context) {
        case .respond(let response):
            send(response, for: request, on: connection)
            return isFinishing
        case .upgradeToWebSocket(let delegate, let extraHeaders, let validated):
            switch validated.map({ .success($0) }) ?? WebSocketHandshake.validateUpgrade(request) {
            case .failure(let error):
                send(configuration.handshakeErrorResponse(error), for: request, on: connection)
                return isFinishing
            case .success(let upgrade):
                var response = upgrade.response()
                for field in extraHeaders { response.headers.add(field.name, field.value) }
                connection.write(response.serialized(version: request.version, keepAlive: true))
                cancelDeadline(on: connection)
                let channel = WebSocketChannel(connection: connection, settings: webSocketSettings)
                connection.handler = channel
                channel.start(delegate: delegate, initialBytes: parser.takeBufferedBytes())
                return true
            }
        case .deferred(let start):
            awaitReply(start, for: request, on: connection)
            return isFinishing
        case .stream(let head, let delegate):
            guard request.method != "HEAD" else {
                var headers = head.headers
                if request.version != .http1_0 { headers.set("Transfer-Encoding", "chunked") }
                send(HTTPResponse(status: head.status, headers: headers), for: request, on: connection)
                return isFinishing
            }
            startStream(head, delegate: delegate, for: request, on: connection)
            return true
        }
    }

    /// Stops reading (pipelined requests wait in the kernel and the parser) until the reply is
    /// sent, then answers whatever came meanwhile. No deadline runs: the client waits for us.
    private func awaitReply(_ start: (HTTPDeferredReply) -> Void, for request: HTTPRequest, on connection: Connection) {
        isAwaitingReply = true
        connection.pauseReading()
        let awaited = { [weak self, weak connection] in connection?.isOpen == true && self?.isAwaitingReply == true }
        let reply = HTTPDeferredReply(loop: connection.loop, awaited: awaited) { [weak self, weak connection] response in
            guard let self, let connection, connection.isOpen, self.isAwaitingReply else { return }
            self.isAwaitingReply = false
            self.send(response, for: request, on: connection)
            guard !self.isFinishing else { return }
            connection.resumeReading()
            self.answerBufferedRequests(on: connection)
        }
        start(reply)
    }

    /// Sends the head of a streamed response and hands the body to the delegate's writer. The
    /// connection reads on (so a client that goes away is noticed) but ignores further requests.
    private func startStream(
        _ head: HTTPResponse, delegate: any HTTPStreamDelegate, for request: HTTPRequest, on connection: Connection
    ) {
        isFinishing = true
        cancelDeadline(on: connection)
        let isChunked = request.version != .http1_0
        connection.write(HTTPStreamWriter.head(head, version: request.version, isChunked: isChunked))
        let writer = HTTPStreamWriter(connection: connection, peer: peer, isChunked: isChunked, delegate: delegate)
        stream = writer
        writer.open()
    }

    private func send(_ response: HTTPResponse, for request: HTTPRequest, on connection: Connection) {
        let keepAlive = request.keepAlive && !response.headers.hasToken("close", in: "Connection")
        connection.write(
            response.serialized(version: request.version, keepAlive: keepAlive, isHeadRequest: request.method == "HEAD"))
        if !keepAlive {
            isFinishing = true
            cancelDeadline(on: connection)
            connection.close(.afterFlush)
        }
    }

    /// Writes a final response (an error or a timeout) and closes after flushing.
    private func finish(_ connection: Connection, with response: HTTPResponse) {
        isFinishing = true
        cancelDeadline(on: connection)
        connection.write(response.serialized(keepAlive: false))
        connection.close(.afterFlush)
    }

    // MARK: Deadlines

    private func updateDeadline(on connection: Connection) {
        let phase: Phase = parser.hasPartialHead ? .header : (parser.isIdle ? .idle : .body)
        // Header and body deadlines run from the start of their phase; only a phase change resets them.
        if deadline?.phase == phase { return }
        setDeadline(phase, on: connection)
    }

    private func setDeadline(_ phase: Phase, on connection: Connection) {
        cancelDeadline(on: connection)
        let timeout: Duration
        switch phase {
        case .header: timeout = configuration.headerTimeout
        case .body: timeout = configuration.bodyTimeout
        case .idle: timeout = configuration.idleTimeout
        }
        // The connection is held strongly: every way out of HTTP (upgrade, close, finish)
        // cancels the deadline, and a weak reference would give every connection a side table
        // for the rest of its life (32 bytes each, for the life of a WebSocket session).
        let timer = connection.loop.scheduleTimer(after: timeout) { [weak self, connection] in
            guard let self else { return }
            self.deadline = nil
            self.deadlinePassed(phase, on: connection)
        }
        deadline = (phase, timer)
    }

    private func cancelDeadline(on connection: Connection) {
        if let deadline { connection.loop.cancelTimer(deadline.timer) }
        deadline = nil
    }

    private func deadlinePassed(_ phase: Phase, on connection: Connection) {
        guard connection.isOpen, !isFinishing else { return }
        switch phase {
        case .idle:
            isFinishing = true
            connection.close(.immediately)
        case .header:
            finish(connection, with: .jsonError(
                status: 408, error: "request_timeout",
                description: "the request head did not arrive within \(configuration.headerTimeout)"))
        case .body:
            finish(connection, with: .jsonError(
                status: 408, error: "request_timeout",
                description: "the request body did not arrive within \(configuration.bodyTimeout)"))
        }
    }
}
