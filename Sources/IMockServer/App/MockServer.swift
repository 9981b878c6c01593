import FoundationEssentials
import IMockNet

/// The imock server: one event loop serving the REST API, the `/ws` long-lived connection and
/// the control API under `/_imock/` on one port. All state lives on the loop thread.
public final class MockServer: @unchecked Sendable {  // confined to the loop thread; Sendable only so routes can hold it
    public let loop: EventLoop
    public let options: ServeOptions
    private let logger: Logger
    private var http: HTTPServer!
    private var router = Router<Route>()
    private let startedAt = MonotonicInstant.now()
    private var sessions: [UInt64: SessionConnection] = [:]

    /// A route handler: runs on the loop thread.
    typealias Route = @Sendable (HTTPRequest, [String: String], HTTPRequestContext) -> HTTPServerResponse

    /// Creates the server; `tls` comes from `--tls-cert`/`--tls-key` when given.
    public init(loop: EventLoop, options: ServeOptions, tls: TLSContext? = nil, logger: Logger = .disabled) {
        self.loop = loop
        self.options = options
        self.logger = logger
        self.http = HTTPServer(loop: loop, configuration: options.httpConfiguration(tls: tls)) {
            [unowned self] request, context in
            self.respond(to: request, context: context)
        }
        installRoutes()
    }

    /// Listens on the configured host and port; returns the bound address. Call before the
    /// loop runs or on the loop thread.
    @discardableResult
    public func start() throws -> SocketAddress {
        let address = try http.listen(host: options.host, port: options.port)
        logger.info("listening", ["address": address.description, "tls": http.configuration.tls == nil ? "off" : "on"])
        return address
    }

    /// Stops listening and closes every connection.
    public func shutdown() {
        http.shutdown()
    }

    /// Open connections, HTTP and WebSocket.
    public var connectionCount: Int { http.connectionCount }

    /// Open `/ws` sessions.
    public var sessionCount: Int { sessions.count }

    private func installRoutes() {
        router.add("GET", "/_imock/health") { [unowned self] _, _, _ in
            .respond(self.healthResponse())
        }
        router.add("GET", "/ws") { [unowned self] _, _, context in
            let session = SessionConnection(server: self, peer: context.peer)
            return .upgradeToWebSocket(delegate: session)
        }
    }

    private func respond(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPServerResponse {
        let response: HTTPServerResponse
        switch router.match(method: request.method, path: request.path) {
        case .found(let route, let parameters):
            response = route(request, parameters, context)
        case .methodNotAllowed(let allowed):
            var error = HTTPResponse.jsonError(
                status: 405, error: "method_not_allowed",
                description: "\(request.method) is not allowed on \(request.path); allowed: \(allowed.joined(separator: ", "))")
            error.headers.set("Allow", allowed.joined(separator: ", "))
            error.headers.remove("Connection")
            response = .respond(error)
        case .notFound:
            var error = HTTPResponse.jsonError(
                status: 404, error: "service_resource_not_found", description: "no route for \(request.path)")
            error.headers.remove("Connection")
            response = .respond(error)
        }
        if case .respond(let answer) = response {
            logger.debug("request", ["method": request.method, "path": request.path, "status": String(answer.status)])
        }
        return response
    }

    private func healthResponse() -> HTTPResponse {
        struct Health: Encodable {
            var status = "ok"
            var version = IMockVersion.current
            var uptimeMs: Int64
            var connections: Int
            var sessions: Int
        }
        let health = Health(
            uptimeMs: (MonotonicInstant.now().nanoseconds - startedAt.nanoseconds) / 1_000_000,
            connections: connectionCount, sessions: sessionCount)
        return .json(status: 200, JSONCoding.encode(health))
    }

    func sessionOpened(_ session: SessionConnection, id: UInt64) {
        sessions[id] = session
        logger.debug("ws.open", ["conn": String(id), "peer": session.peer?.description ?? "-"])
    }

    func sessionClosed(id: UInt64, code: WebSocketCloseCode) {
        sessions.removeValue(forKey: id)
        logger.debug("ws.close", ["conn": String(id), "code": String(code.rawValue)])
    }
}
