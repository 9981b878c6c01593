import Dispatch
import IMockCore
import IMockNet
import Synchronization

/// The reference client: the SDK state machine (``ClientStateMachine``) over a real WebSocket,
/// a SQLite database per user and delegates called on their queues. Thread-safe: every method
/// may be called from any thread; the state lives on one event-loop thread.
public final class IMClient: Sendable {
    /// The configuration.
    public let options: ClientOptions
    /// The server.
    public let endpoint: ServerEndpoint
    /// Every callback emitted so far, in order (the harness's record log).
    public let log: CallbackLog
    let engine: ClientFront
    private let delegates: DelegateRegistry
    private let callbackQueue: DispatchQueue
    private let ownedLoop: EventLoop?
    private let localIDCounter = Atomic<UInt64>(0)
    private let shutdownStarted = Atomic<Bool>(false)

    /// Creates a logged-out client.
    /// - Parameters:
    ///   - endpoint: the server's host, port and WebSocket path.
    ///   - clock: the clock the state machine reads (records carry its time).
    ///   - dataDirectory: where the per-user databases and the `lastOnlineUser` file live; nil
    ///     keeps databases in memory and remembers no user across runs.
    ///   - loop: the event loop to run on; nil starts one the client owns (stopped by ``shutdown()``).
    ///   - timerMode: real-time timers, or timers on the run's shared `Timeline` (which then is
    ///     the client's clock too, whatever `clock` says).
    ///   - tls: the TLS context for `wss` endpoints.
    ///   - callbackQueue: the queue of delegates registered without one, and of completion handlers.
    ///   - lastOnlineUser: the last user whose login reached the server (Z5); nil reads it from `dataDirectory`.
    ///   - sequencer: numbers the records of this client and of every other client sharing it in
    ///     one order (``CallbackRecord/sequence``); nil leaves them 0.
    public init(
        options: ClientOptions, endpoint: ServerEndpoint, clock: any Clock = SystemClock(), dataDirectory: String? = nil,
        loop: EventLoop? = nil, timerMode: ClientTimerMode = .realTime, tls: TLSContext? = nil,
        callbackQueue: DispatchQueue? = nil, lastOnlineUser: String? = nil, sequencer: CallbackSequencer? = nil
    ) throws(IMClientError) {
        let directory = dataDirectory.map { ClientDataDirectory(path: $0) }
        do throws(ClientError) { try directory?.create() } catch { throw .dataDirectory(error) }
        let runLoop: EventLoop
        if let loop {
            runLoop = loop
            ownedLoop = nil
        } else {
            do { runLoop = try EventLoop() } catch { throw .eventLoop(error) }
            runLoop.start()
            ownedLoop = runLoop
        }
        self.options = options
        self.endpoint = endpoint
        self.log = CallbackLog(sequencer: sequencer)
        let queue = callbackQueue ?? DispatchQueue(label: "imock.client.callbacks")
        self.callbackQueue = queue
        self.delegates = DelegateRegistry(defaultQueue: queue)
        let machine = ClientStateMachine(options: options, lastOnlineUser: lastOnlineUser ?? directory?.readLastOnlineUser())
        engine = ClientFront(
            machine: machine, loop: runLoop, endpoint: endpoint, tls: tls, clock: clock, dataDirectory: directory,
            timerMode: timerMode, log: log, delegates: delegates)
    }

    /// Creates a client for `serverURL` (`ws://host:port/ws`, `wss://…`; the path defaults to `/ws`).
    public convenience init(
        options: ClientOptions, serverURL: String, clock: any Clock = SystemClock(), dataDirectory: String? = nil,
        loop: EventLoop? = nil, timerMode: ClientTimerMode = .realTime, tls: TLSContext? = nil,
        callbackQueue: DispatchQueue? = nil
    ) throws(IMClientError) {
        let endpoint: ServerEndpoint
        do { endpoint = try ServerEndpoint(url: serverURL) } catch { throw .invalidServerURL(error) }
        try self.init(
            options: options, endpoint: endpoint, clock: clock, dataDirectory: dataDirectory, loop: loop,
            timerMode: timerMode, tls: tls, callbackQueue: callbackQueue)
    }

    /// Creates a client for `ws://host:port/ws`.
    public convenience init(
        options: ClientOptions, host: String, port: UInt16, clock: any Clock = SystemClock(), dataDirectory: String? = nil,
        loop: EventLoop? = nil, timerMode: ClientTimerMode = .realTime, callbackQueue: DispatchQueue? = nil
    ) throws(IMClientError) {
        try self.init(
            options: options, endpoint: ServerEndpoint(host: host, port: port), clock: clock,
            dataDirectory: dataDirectory, loop: loop, timerMode: timerMode, callbackQueue: callbackQueue)
    }

    /// Closes the socket, the timers and the database, and stops the loop the client owns.
    /// Calls still waiting, calls racing this one and later calls fail at once with the profile's
    /// not-logged-in code. Delegate callbacks already handed to their queues may still run.
    /// A second call does nothing. With a shared `loop`, that loop must still be running.
    public func shutdown() async {
        guard !shutdownStarted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        engine.beginShutdown()
        await engine.shutdownOnLoop()
        if let ownedLoop {
            ownedLoop.stop()
            await ownedLoop.waitUntilStopped()
        }
    }

    // MARK: Delegates (C4)

    /// Adds `delegate`; its callbacks run on `queue` (nil: the client's callback queue). It gets
    /// only callbacks emitted after this call.
    public func addDelegate(_ delegate: any IMClientDelegate, queue: DispatchQueue? = nil) {
        delegates.add(delegate, queue: queue)
    }

    /// Removes `delegate`; it gets nothing more, not even callbacks already on its queue.
    public func removeDelegate(_ delegate: any IMClientDelegate) {
        delegates.remove(delegate)
    }

    // MARK: Queries (synchronous, O5)

    /// Whether a user is logged in, connected or not (E1).
    public var isLoggedIn: Bool { engine.shared.status.withLock { $0.loginStatus == .logged } }
    /// Whether the connection is up (E3).
    public var isConnected: Bool { engine.shared.status.withLock { $0.isConnected } }
    /// The logged-in user (E7).
    public var currentUsername: String? { engine.shared.status.withLock { $0.currentUsername } }
    /// Logout / Logging / Logged (O5).
    public var loginStatus: LoginStatus { engine.shared.status.withLock { $0.loginStatus } }
    /// The last user whose login reached the server (Z5); saved in the data directory.
    public var lastOnlineUser: String? { engine.shared.status.withLock { $0.lastOnlineUser } }
    /// The token's expiry from the server, nil for never or when logged out.
    public var tokenExpiresAt: Int64? { engine.shared.status.withLock { $0.tokenExpiresAt } }

    // MARK: Test and harness hooks

    /// The pending timers and their due times on the client's clock.
    public func pendingTimers() async -> [ClientTimer: Int64] {
        await engine.onLoop(orElse: [:]) { $0.pendingTimers }
    }

    /// Pings the server on the live connection and returns when the `pong` came: by then every
    /// frame the server sent before it has been handled and its callbacks logged (the harness's
    /// settle step). False at once when no connection is open, or when it closed first.
    @discardableResult
    public func roundTrip() async -> Bool {
        await engine.startOnLoop(orElse: false) { engine, finish in engine.startRoundTrip(finish) }
    }

    /// The ids of the messages in the current login's database, oldest first.
    public func storedMessageIDs() async -> [String] {
        await engine.onLoop(orElse: []) { $0.storedMessageIDs }
    }

    /// Problems the shell met (a database write, the `lastOnlineUser` file, malformed frames).
    public var problems: [String] { engine.problemLog }

    /// The path of `user`'s database under `dataDirectory` (or `:memory:`).
    public static func databasePath(user: String, dataDirectory: String?) -> String {
        DatabaseLocation.path(user: user, directory: dataDirectory)
    }

    func nextLocalID() -> String {
        "local-\(localIDCounter.add(1, ordering: .relaxed).newValue)"
    }

    func onCallbackQueue(_ body: @escaping @Sendable () -> Void) {
        callbackQueue.async(execute: body)
    }
}

/// Why an ``IMClient`` could not be created.
public enum IMClientError: Error, Sendable {
    /// The server URL could not be parsed.
    case invalidServerURL(ServerURLError)
    /// The event loop could not be created.
    case eventLoop(SystemError)
    /// The data directory could not be created.
    case dataDirectory(ClientError)
}
