import IMockCommon
import IMockCore
import IMockNet
import IMockStore
import IMockWire

/// The imock server: one event loop serving the Easemob-shaped REST API, the session
/// connections of each wire dialect and the control API under `/_imock/` on one port. All
/// state lives on the loop thread: the domain in a `LoopBound` shared with the handlers, the
/// rest in this loop-confined object (routes hold it through a `LoopBound` reference).
public final class MockServer {
    public let loop: EventLoop
    public let configuration: ServerConfiguration
    let logger: Logger
    /// The one clock every timer and expiry reads (`--clock`, moved by the control API), shared
    /// with in-process clients.
    public let clock: Timeline
    /// Apps, users, tokens, live sessions, faults, checkpoints (docs/ARCHITECTURE.md).
    public let domain: LoopBound<Domain>
    private var http: HTTPServer!
    private var router = Router<Route>()
    /// The dialects served, each at its path.
    let dialects: [DialectRoute]
    /// The shell around the session engine: connections, their dialects, faults on them.
    private(set) var hub: SessionHub!
    private var timelineTimer: LoopTimerID?
    /// Where the request being routed was recorded (record mode), for its answer's status.
    private var recordingMarks: [RecordingMark] = []
    /// This server as `@Sendable` closures capture it.
    private var this: LoopBound<Unowned<MockServer>>!
    /// Who may use the control API.
    let controlAccess: ControlAccess
    /// The counters behind `/_imock/metrics`.
    let metrics = MetricsRecorder()
    /// The subscribers of `/_imock/events`.
    let events = StreamBroadcaster()
    /// The store of `--data`; nil in memory.
    let store: ServerStore?
    /// A commit failed: the server stopped answering (see ``onStoreFailure``).
    private(set) var storeFailure: StoreError?
    /// ``closeStore()`` ran: nothing is committed any more.
    private var storeClosed = false
    /// Derive password hashes for the REST handlers that need them.
    private let workers: WorkerPool
    /// Called on the loop thread when a commit fails. The server has already closed every
    /// connection without sending what the failed turn held (nothing uncommitted was answered)
    /// and stopped listening; `imock serve` then exits with 74. Its memory is ahead of the store,
    /// so it must not go on.
    public var onStoreFailure: ((StoreError) -> Void)?

    /// A route handler: runs on the loop thread.
    typealias Route = @Sendable (HTTPRequest, [String: String], HTTPRequestContext) -> HTTPServerResponse

    /// Creates the server over `directory` (its apps and users, see `ServerConfiguration.makeDirectory`).
    /// `tls` comes from `--tls-cert`/`--tls-key` when given. `timeline` is the run's clock and
    /// timers, to share with in-process clients; by default one of `--clock`'s mode. `dialects`
    /// are the wire protocols served, each at its path. With `store` (`--data`) a store that a
    /// server already used replaces `directory` and the clock's mode and start with what it
    /// holds, and every turn's changes are committed to it before the turn's output leaves.
    /// `workers` derive password hashes off the loop (the process's shared pool by default).
    /// `decider` applies the login policies (tests put a changed one in: docs/RECORD.md).
    public init(
        loop: EventLoop, configuration: ServerConfiguration, directory: Directory, tls: TLSContext? = nil, logger: Logger = .disabled,
        timeline: Timeline? = nil, dialects: [DialectRoute] = DialectCatalog.served, store: ServerStore? = nil,
        workers: WorkerPool = .shared, decider: any LoginDecider = AppLoginDecider()
    ) {
        self.loop = loop
        self.workers = workers
        self.configuration = configuration
        self.logger = logger
        self.dialects = dialects
        self.store = store
        let clock = timeline ?? store?.restoredClock ?? Timeline(mode: configuration.clockMode, startMs: configuration.clockStartMs)
        self.clock = clock
        var faults = FaultBook()
        // With --seed-random the seed is known (and listed) before the first fault.
        if let seed = configuration.randomSeed { faults.seedIfNeeded(seed) }
        let engine = SessionEngine(
            configuration: SessionEngineConfiguration(tokenWarningPercent: configuration.tokenWarningPercent),
            decider: decider)
        var initial = store?.restoredDomain(engine: engine, faults: faults)
            ?? Domain(directory: directory, engine: engine, faults: faults)
        if store != nil { initial.startRecordingChanges() }
        self.domain = LoopBound(initial, on: loop)
        self.controlAccess = ControlAccess(
            secret: configuration.adminSecret ?? ServerConfiguration.randomSecret(directory.settings.random),
            allowRemote: configuration.controlRemote)
        var httpConfiguration = configuration.httpConfiguration(tls: tls)
        httpConfiguration.transportErrorResponse = { [clock] error in
            MockServer.transportErrorResponse(error, nowMs: clock.nowMs)
        }
        httpConfiguration.handshakeErrorResponse = { [clock] error in
            MockServer.handshakeErrorResponse(error, nowMs: clock.nowMs)
        }
        let this = LoopBound(Unowned(self), on: loop)
        self.this = this
        self.http = HTTPServer(loop: loop, configuration: httpConfiguration) { request, context in
            this.value.object.respond(to: request, context: context)
        }
        self.hub = SessionHub(
            loop: loop, clock: clock, domain: domain, idleTimeout: configuration.sessionIdleTimeout,
            outputLimit: configuration.maxWebSocketOutputBytes, logger: logger)
        clock.onDeadlinesChanged {
            if loop.inEventLoop {
                this.value.object.armTimelineTimer()
            } else {
                loop.execute { this.value.object.armTimelineTimer() }
            }
        }
        hub.onJournal = { [unowned self] entry, sequence in
            self.metrics.record(entry)
            self.events.publish(entry, sequence: sequence)
        }
        installRoutes(this, dialects: dialects)
        if store != nil {
            // Group commit: each turn's changes are committed, then its output leaves.
            loop.holdsOutputUntilTurnEnd = true
            loop.onTurnEnd { this.value.object.commitTurn() }
        }
    }

    /// Listens on the configured host and port; returns the bound address. Call before the
    /// loop runs or on the loop thread.
    @discardableResult
    public func start() throws -> SocketAddress {
        let address = try http.listen(host: configuration.host, port: configuration.port)
        if let store {
            // After listening: a server that could not start leaves a new store empty.
            try store.writeFirstState(of: domain.value, clock: clock)
            store.logOpened(to: logger)
            if store.restored != nil, !configuration.apps.isEmpty || configuration.seedPath != nil {
                logger.warning(
                    "data.seedIgnored",
                    ["reason": "the store already holds the server's state; --app and --seed apply to a new store only"])
            }
        }
        startRecordings()
        let report = startupReport(address: address)
        logger.report(report)
        // The secrets of apps from --app, --seed or a store are logged at debug only.
        for shown in report.apps where shown.clientSecret == nil {
            guard let key = try? AppKey(parsing: shown.key), let app = try? domain.value.directory.app(key) else { continue }
            logger.debug("app.credentials", ["appKey": key.description, "clientSecret": app.clientSecret])
        }
        // Last, so a script that waits for this line has the whole start-up report.
        logger.info("listening", ["address": address.description, "tls": http.configuration.tls == nil ? "off" : "on"])
        return address
    }

    /// The start-up report of a server listening on `address`.
    func startupReport(address: SocketAddress) -> StartupReport {
        let secure = http.configuration.tls != nil
        let authority = address.description
        let directory = domain.value.directory
        // Only the implicit demo app's secret is shown (so a first run can get an app token).
        let showSecrets = configuration.apps.isEmpty && configuration.seedPath == nil
        let apps = directory.appKeys.compactMap { key -> StartupReport.App? in
            guard let app = try? directory.app(key) else { return nil }
            return StartupReport.App(
                key: key.description, registration: app.settings.registrationMode.rawValue,
                policy: app.settings.loginPolicy.summary, clientID: app.clientID,
                clientSecret: showSecrets && key.description == ServerConfiguration.defaultApp.key ? app.clientSecret : nil)
        }
        // A restored clock may stand still although --clock says system, or flow.
        return StartupReport(
            httpBase: (secure ? "https://" : "http://") + authority, socketBase: (secure ? "wss://" : "ws://") + authority,
            dialects: dialects.map { ($0.make().name, $0.path) }, apps: apps,
            generatedAdminSecret: configuration.adminSecret == nil ? controlAccess.secret : nil,
            controlRemote: configuration.controlRemote, clockMode: clock.isFrozen ? "virtual" : "system", clockNowMs: clock.nowMs,
            dataDirectory: store?.directory)
    }

    /// Stops listening and closes every connection. With a store, what the current turn
    /// changed is committed and its output written first.
    public func shutdown() {
        if store != nil, storeFailure == nil {
            commitTurn()
            loop.releaseHeldOutput()
            // Nothing uncommitted is left: the goodbyes go out at once.
            if storeFailure == nil { loop.holdsOutputUntilTurnEnd = false }
        }
        http.shutdown()
    }

    /// Commits what is left and closes the store: after ``shutdown()``, on the loop's thread
    /// (`imock serve` calls it on the thread that ran the loop, once `run()` returned).
    public func closeStore() {
        guard let store, !storeClosed else { return }
        commitTurn()
        storeClosed = true
        store.store.close()
    }

    /// The group commit at the end of a loop turn.
    private func commitTurn() {
        guard let store, storeFailure == nil, !storeClosed else { return }
        do {
            try store.commit(&domain.value, clock: clock)
        } catch {
            storeFailure = error
            logger.error("store.failed", ["error": error.description])
            // Closing drops every connection's held output: nothing of this turn is answered.
            http.shutdown()
            onStoreFailure?(error)
        }
    }

    /// Open connections, HTTP and WebSocket.
    public var connectionCount: Int { http.connectionCount }

    /// Open `/ws` connections.
    public var sessionCount: Int { hub.connectionCount }

    /// The live sessions of `user` in `app` (for tests and the control API).
    public func sessions(of user: String, in app: AppKey) -> [SessionInfo] {
        domain.value.engine.sessions(of: user, in: app)
    }

    /// The apps, users and tokens (a copy, read on the loop thread).
    public var directory: Directory { domain.value.directory }

    /// What the server sent that matters to a test: kicks, token events, closes.
    public var journal: [JournalEntry] { hub.journal }

    private func installRoutes(_ this: LoopBound<Unowned<MockServer>>, dialects: [DialectRoute]) {
        router.add("GET", "/_imock/health") { _, _, _ in
            .respond(this.value.object.healthResponse())
        }
        for dialect in dialects {
            router.add("GET", dialect.path) { request, _, context in
                this.value.object.upgrade(request, dialect: dialect.make(), context: context)
            }
            for companion in dialect.companions {
                router.add("GET", companion.pattern) { _, _, _ in
                    .respond(companion.respond(this.value.object.domain.value.directory.settings.random))
                }
            }
        }
        for (pattern, handler) in Dashboard.routes(access: controlAccess, clock: clock) { router.add("GET", pattern, handler) }
        for route in ControlAPI.routes {
            router.add(route.method, route.pattern) { request, parameters, context in
                this.value.object.runControl(route, request, parameters: parameters, context: context)
            }
        }
        for route in RESTAPI.routes + OpenIMAPI.routes {
            router.add(route.method, route.pattern) { request, parameters, context in
                this.value.object.runREST(route, request, parameters: parameters, context: context)
            }
        }
    }

    /// Runs a REST handler. One that needs password hashes gets them derived on the worker
    /// pool first and is run again on the loop with them; the connection waits meanwhile.
    private func runREST(
        _ route: RESTRoute, _ request: HTTPRequest, parameters: [String: String], context: HTTPRequestContext
    ) -> HTTPServerResponse {
        let outcome = runHandler(route, request, parameters: parameters, context: context, passwords: .offLoop)
        guard !outcome.derivations.isEmpty else { return .respond(outcome.response) }
        let server = LoopBound(WeakReference(self), on: loop)
        let workers = self.workers
        let marks = recordingMarks
        return .deferred { reply in
            workers.map(outcome.derivations, { $0?.derive() }) { hashes in
                reply.loop.execute {
                    // A connection the server closed meanwhile (shutdown, a failed commit) changes
                    // nothing: nobody would learn of it.
                    guard let server = server.value.object, reply.isAwaited else { return }
                    let rerun = server.runHandler(route, request, parameters: parameters, context: context, passwords: .derived(hashes))
                    server.recordAnswer(request, rerun.response)
                    server.hub.recorder.answered(marks, status: rerun.response.status)
                    reply.send(rerun.response)
                }
            }
        }
    }

    private func runHandler(
        _ route: RESTRoute, _ request: HTTPRequest, parameters: [String: String], context: HTTPRequestContext,
        passwords: PasswordWork
    ) -> RESTOutcome {
        let now = clock.nowMs
        let outcome = route.run(
            request, parameters: parameters, domain: &domain.value, nowMs: now, presence: hub.presence,
            scheme: context.isSecure ? "https" : "http", passwords: passwords)
        // The response goes out before the kicks it causes reach the devices.
        if !outcome.effects.isEmpty { hub.perform(domain.value.apply(outcome.effects, nowMs: now)) }
        return outcome
    }

    /// What control handlers work with.
    var controlContext: ControlContext {
        ControlContext(
            domain: domain, clock: clock, sessions: hub, events: events, metrics: metrics, configuration: configuration,
            connectionCount: { [unowned self] in self.connectionCount },
            moveClock: { [unowned self] target, move throws(VirtualClockError) in try self.moveClock(to: target, move) })
    }

    private func runControl(
        _ route: ControlRoute, _ request: HTTPRequest, parameters: [String: String], context: HTTPRequestContext
    ) -> HTTPServerResponse {
        do {
            try controlAccess.check(request, context: context)
            let call = try ControlRequest(http: request, parameters: parameters)
            return try route.respond(controlContext, call)
        } catch {
            return .respond(error.response(nowMs: clock.nowMs))
        }
    }

    func respond(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPServerResponse {
        let response: HTTPServerResponse
        recordingMarks = hub.recordCall(request, dialectPaths: dialects.map(\.path))
        defer { recordingMarks = [] }
        switch router.match(method: request.method, path: request.path) {
        case .found(let route, let parameters):
            response = route(request, parameters, context)
        case .methodNotAllowed(let allowed):
            response = .respond(
                controlRefusal(request, context: context)
                    ?? RESTError.methodNotAllowedResponse(allowed: allowed, nowMs: clock.nowMs))
        case .notFound:
            response = .respond(
                controlRefusal(request, context: context)
                    ?? RESTError.serviceResourceNotFound.response(nowMs: clock.nowMs))
        }
        if case .respond(let answer) = response {
            recordAnswer(request, answer)
            hub.recorder.answered(recordingMarks, status: answer.status)
        }
        return response
    }

    /// Counts and logs an answered request.
    private func recordAnswer(_ request: HTTPRequest, _ answer: HTTPResponse) {
        metrics.requestAnswered(request, answer)
        logger.debug("request", ["method": request.method, "path": request.path, "status": String(answer.status)])
    }

    /// Under `/_imock/` (health and the dashboard's static files aside) access is checked before a path is looked up, so an
    /// unknown control path tells nothing to a caller without the secret (401 or 403 first).
    private func controlRefusal(_ request: HTTPRequest, context: HTTPRequestContext) -> HTTPResponse? {
        guard request.path.hasPrefix("/_imock/") || request.path == "/_imock" else { return nil }
        // The public ones (health, the dashboard's page and assets) answer 404/405 as usual.
        let isPublic = request.path == "/_imock/health" || request.path == Dashboard.path
            || request.path.hasPrefix(Dashboard.path + "/")
        guard !isPublic else { return nil }
        do {
            try controlAccess.check(request, context: context)
            return nil
        } catch {
            return error.response(nowMs: clock.nowMs)
        }
    }

    /// Requests that could not be parsed get the Easemob error envelope too.
    static func transportErrorResponse(_ error: HTTPParseError, nowMs: Int64) -> HTTPResponse {
        let restError =
            error == .bodyTooLarge
            ? RESTError.payloadTooLarge
            : RESTError(status: error.status, error: error.name, exception: "HTTPParseException", description: error.description)
        var response = restError.response(nowMs: nowMs)
        response.headers.set("Connection", "close")
        return response
    }

    /// A refused WebSocket upgrade on `/ws` gets the Easemob error envelope with the
    /// handshake's status and headers (426 keeps `Sec-WebSocket-Version: 13`).
    static func handshakeErrorResponse(_ error: WebSocketHandshake.HandshakeError, nowMs: Int64) -> HTTPResponse {
        let restError = RESTError(
            status: error.status, error: "websocket_handshake_failed", exception: "WebSocketHandshakeException",
            description: error.description)
        var response = restError.response(nowMs: nowMs)
        for field in error.headers { response.headers.set(field.name, field.value) }
        return response
    }

    private func healthResponse() -> HTTPResponse {
        let health: JSONValue = [
            "status": "ok", "version": .string(IMockVersion.current), "uptimeMs": .int(metrics.uptimeMilliseconds),
            "connections": .int(Int64(connectionCount)), "sessions": .int(Int64(sessionCount)),
            "apps": .int(Int64(domain.value.directory.appKeys.count)),
        ]
        return .json(status: 200, health.encoded())
    }

    // MARK: Sessions

    func sessionOpened(
        _ channel: WebSocketChannel, dialect: any WireDialect, peer: SocketAddress?, upgrade: UpgradeSession?
    ) -> ConnectionID {
        hub.opened(channel, dialect: dialect, peer: peer, upgrade: upgrade)
    }

    /// A session connection asked for: upgraded at once, or — for a dialect that logs in during
    /// the upgrade — after the login the dialect read from the request was accepted.
    private func upgrade(_ request: HTTPRequest, dialect: any WireDialect, context: HTTPRequestContext) -> HTTPServerResponse {
        let upgradeRequest = UpgradeRequest(
            path: request.path, query: request.query.map { ($0.name, $0.value) },
            headers: request.headers.map { ($0.name, $0.value) })
        var dialect = dialect
        switch dialect.login(forUpgrade: upgradeRequest) {
        case .none:
            return .upgradeToWebSocket(delegate: SessionConnection(server: self, dialect: dialect, peer: context.peer))
        case .refuse(let refusal):
            return .respond(Self.response(refusal))
        case .login(let command):
            // Checked before the login, so an accepted login always gets its connection.
            let validated: WebSocketHandshake.ServerUpgrade
            switch WebSocketHandshake.validateUpgrade(request) {
            case .success(let upgrade): validated = upgrade
            case .failure(let error): return .respond(Self.handshakeErrorResponse(error, nowMs: clock.nowMs))
            }
            switch hub.loginDuringUpgrade(command, dialect: dialect) {
            case .failure(let refusal):
                if let overWebSocket = refusal.overWebSocket {
                    return .upgradeToWebSocket(delegate: RefusalConnection(overWebSocket), validated: validated)
                }
                return .respond(Self.response(refusal))
            case .success(let session):
                let connection = SessionConnection(server: self, dialect: dialect, peer: context.peer, upgrade: session)
                return .upgradeToWebSocket(delegate: connection, validated: validated)
            }
        }
    }

    private static func response(_ refusal: UpgradeRefusal) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Content-Type", refusal.contentType)
        return HTTPResponse(status: refusal.status, headers: headers, body: refusal.body)
    }

    func sessionReceived(_ message: WireMessage, on id: ConnectionID) {
        hub.received(message, on: id)
    }

    func sessionActive(_ id: ConnectionID) {
        hub.noteActivity(on: id)
    }

    func sessionClosed(_ id: ConnectionID, code: WebSocketCloseCode) {
        hub.closed(id, code: code)
    }

    /// Keeps one loop timer armed for the timeline's earliest deadline while it flows. A frozen
    /// timeline fires timers when it is moved, and also those scheduled at or before the time it
    /// stands at (a token warning already due at login): they run on the next loop turn, after
    /// the outputs of the command that scheduled them, as on a flowing clock.
    func armTimelineTimer() {
        if let timelineTimer { loop.cancelTimer(timelineTimer) }
        timelineTimer = nil
        guard let deadline = clock.nextDeadlineMs else { return }
        let now = clock.nowMs
        guard !clock.isFrozen || deadline <= now else { return }
        let delay = max(0, deadline.clampedSubtracting(now))
        let this = self.this!
        timelineTimer = loop.scheduleTimer(after: .milliseconds(delay)) {
            this.value.object.timelineTimer = nil
            this.value.object.clock.fireDue()
            this.value.object.armTimelineTimer()
        }
    }

    /// Moves the clock with `move` (an advance or a set to `targetMs`): the jump counts as
    /// activity on every connection first, then the timeline steps through the timers due.
    /// On the loop: the control API's clock routes, and the harness's in-process link.
    public func moveClock(to targetMs: Int64, _ move: () throws(VirtualClockError) -> Void) throws(VirtualClockError) {
        hub.clockWillJump(to: targetMs)
        defer { hub.clockDidJump() }
        try move()
    }
}
