import IMockCommon
import IMockCore
import IMockWire
import IMockNet
import Synchronization

/// What the client shares between threads: the status snapshot, the shell's problem log, the
/// shutdown gate. Read from any thread.
final class ClientShared: Sendable {
    /// Written on the loop after each event.
    let status: Mutex<ClientStatus>
    let problems = Mutex<[String]>([])
    /// Every hop onto the loop that someone waits for passes here, so shutdown can end it.
    let gate = ShutdownGate()
    /// The code calls fail with after shutdown (the profile's "not logged in").
    let notLoggedInCode: Int

    init(status: ClientStatus, notLoggedInCode: Int) {
        self.status = Mutex(status)
        self.notLoggedInCode = notLoggedInCode
    }

    /// What calls waiting at, or made after, shutdown get.
    var shutDownError: ClientError { ClientError(code: notLoggedInCode, message: "the client was shut down") }
}

/// The client's door from any thread: it hops onto the loop that owns the ``ClientEngine``
/// (reached through a `LoopBound`, so it is never touched off its loop).
final class ClientFront: Sendable {
    let loop: EventLoop
    let shared: ClientShared
    let engine: LoopBound<ClientEngine>

    init(
        machine: ClientStateMachine, loop: EventLoop, endpoint: ServerEndpoint, tls: TLSContext?, clock: any Clock,
        dataDirectory: ClientDataDirectory?, timerMode: ClientTimerMode, log: CallbackLog, delegates: DelegateRegistry
    ) {
        self.loop = loop
        shared = ClientShared(
            status: ClientStatus(lastOnlineUser: machine.lastOnlineUser),
            notLoggedInCode: machine.options.profile.rules.notLoggedIn)
        engine = LoopBound(
            ClientEngine(
                machine: machine, loop: loop, endpoint: endpoint, tls: tls, clock: clock, dataDirectory: dataDirectory,
                timerMode: timerMode, log: log, delegates: delegates, shared: shared),
            on: loop)
    }

    /// Things that went wrong in the shell (database writes, the `lastOnlineUser` file, ignored frames).
    var problemLog: [String] { shared.problems.withLock { $0 } }

    /// What calls waiting at, or made after, ``beginShutdown()`` get.
    var shutDownError: ClientError { shared.shutDownError }

    /// Whether shutdown began.
    var hasShutDown: Bool { shared.gate.isClosed }

    /// Handles `event` on the loop; `call` is the API call it came from. After ``beginShutdown()``
    /// the call fails at once with ``shutDownError``, and so does one whose event was queued
    /// but not yet handled when shutdown began (the loop may never run it).
    func submit(_ event: ClientEvent, call: PendingCall? = nil) {
        let error = shutDownError
        let gate = shared.gate
        guard let ticket = gate.enter(abort: { call?.fail(error) }) else {
            call?.fail(error)
            return
        }
        loop.execute { [engine] in
            guard gate.claim(ticket) else { return }
            engine.value.feed(event, call: call)
        }
    }

    /// Runs `body` on the loop and returns its result; `fallback` when shutdown begins first.
    func onLoop<T: Sendable>(orElse fallback: T, _ body: @escaping @Sendable (ClientEngine) -> T) async -> T {
        await startOnLoop(orElse: fallback) { engine, finish in finish(body(engine)) }
    }

    /// Runs `start` on the loop; it calls `finish` once with the result, at once or later (after
    /// I/O). When shutdown begins before `finish`, the caller gets `fallback` at once instead.
    func startOnLoop<T: Sendable>(
        orElse fallback: T, _ start: @escaping @Sendable (ClientEngine, _ finish: @escaping (T) -> Void) -> Void
    ) async -> T {
        let gate = shared.gate
        return await withCheckedContinuation { continuation in
            guard let ticket = gate.enter(abort: { continuation.resume(returning: fallback) }) else {
                continuation.resume(returning: fallback)
                return
            }
            loop.execute { [engine] in
                guard !gate.isClosed else { return }  // aborted already
                start(engine.value) { value in
                    if gate.claim(ticket) { continuation.resume(returning: value) }
                }
            }
        }
    }

    /// Starts shutting down (any thread): later calls fail at once, and so do calls and hops
    /// still queued for the loop.
    func beginShutdown() {
        shared.gate.close()
    }

    /// Runs the engine's shutdown on the loop (not through the gate: it must run even after
    /// ``beginShutdown()``).
    func shutdownOnLoop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute { [engine] in
                engine.value.shutdown()
                continuation.resume()
            }
        }
    }
}

/// The I/O shell: owns the ``ClientStateMachine`` and carries out its actions, all on one event
/// loop thread. Events are handled one at a time in arrival order; an event that an action
/// produces (database opened, message stored, a synchronous socket failure) is queued behind
/// the current one, never handled re-entrantly. Loop-confined: other threads go through
/// ``ClientFront``.
final class ClientEngine {
    let loop: EventLoop
    let endpoint: ServerEndpoint
    let tls: TLSContext?
    let clock: any Clock
    let dataDirectory: ClientDataDirectory?
    let log: CallbackLog
    let delegates: DelegateRegistry
    let shared: ClientShared

    var machine: ClientStateMachine
    let timers: TimerTable
    var links: [UInt64: SocketLink] = [:]
    var databases: [UInt64: MessageDatabase] = [:]
    private var queue: [(event: ClientEvent, call: PendingCall?)] = []
    private var draining = false
    private var calls = PendingCalls()
    private var savedLastOnlineUser: String?
    /// Pings of ``startRoundTrip(_:)`` waiting for their pong, by ping id.
    var roundTrips: [String: RoundTrip] = [:]
    var roundTripCounter: UInt64 = 0
    /// This engine as `@Sendable` timer actions capture it (it may be gone when they fire).
    private(set) lazy var bound = LoopBound(WeakEngine(self), on: loop)

    init(
        machine: ClientStateMachine, loop: EventLoop, endpoint: ServerEndpoint, tls: TLSContext?, clock: any Clock,
        dataDirectory: ClientDataDirectory?, timerMode: ClientTimerMode, log: CallbackLog, delegates: DelegateRegistry,
        shared: ClientShared
    ) {
        self.machine = machine
        self.loop = loop
        self.endpoint = endpoint
        self.tls = tls
        // On a shared timeline the timeline is the clock too.
        self.clock = timerMode.timeline ?? clock
        self.dataDirectory = dataDirectory
        self.log = log
        self.delegates = delegates
        self.shared = shared
        self.timers = TimerTable(mode: timerMode, loop: loop)
        self.savedLastOnlineUser = machine.lastOnlineUser
    }

    /// What calls waiting at shutdown get.
    var shutDownError: ClientError { shared.shutDownError }

    // MARK: Loop side

    func feed(_ event: ClientEvent, call: PendingCall? = nil) {
        queue.append((event, call))
        guard !draining else { return }
        draining = true
        while !queue.isEmpty {
            let next = queue.removeFirst()
            process(next.event, call: next.call)
        }
        draining = false
    }

    private func process(_ event: ClientEvent, call: PendingCall?) {
        let actions = machine.handle(event, nowMs: clock.nowMs)
        publishStatus()
        var current = call
        var completions: [() -> Void] = []
        for action in actions {
            if case .emit(let callback) = action { completions += calls.take(for: callback.canonical, current: &current) }
            perform(action)
        }
        if let current { calls.add(current) }
        for completion in completions { completion() }
    }

    private func publishStatus() {
        let snapshot = ClientStatus(
            loginStatus: machine.loginStatus, isConnected: machine.isConnected, currentUsername: machine.currentUsername,
            lastOnlineUser: machine.lastOnlineUser, tokenExpiresAt: machine.tokenExpiresAt)
        shared.status.withLock { $0 = snapshot }
        guard snapshot.lastOnlineUser != savedLastOnlineUser else { return }
        savedLastOnlineUser = snapshot.lastOnlineUser
        do throws(ClientError) {
            try dataDirectory?.writeLastOnlineUser(snapshot.lastOnlineUser)
        } catch {
            note("lastOnlineUser: \(error.message)")
        }
    }

    func note(_ problem: String) {
        shared.problems.withLock { $0.append(problem) }
    }

    // MARK: Test and harness hooks (loop side)

    /// The pending timers and their due times on the client's clock.
    var pendingTimers: [ClientTimer: Int64] { timers.dueTimes }

    /// The ids of the messages stored in the open database of the current login.
    var storedMessageIDs: [String] { databases[machine.loginEpoch]?.messageIDs() ?? [] }

    /// Closes sockets, timers and databases without telling the state machine (the client is going
    /// away); waiting calls fail with ``shutDownError``, and so do later ones. Loop side.
    func shutdown() {
        shared.gate.close()
        for completion in calls.failAll(shutDownError) { completion() }
        queue = []
        timers.cancelAll()
        finishRoundTrips(generation: nil)
        for link in links.values { link.close(code: CloseCode.normal) }
        links = [:]
        for database in databases.values { database.close() }
        databases = [:]
    }
}

/// A weak reference to an engine, for timer actions that may outlive it.
struct WeakEngine {
    weak var engine: ClientEngine?
    init(_ engine: ClientEngine) { self.engine = engine }
}

/// A ping of the shell's own waiting for its pong (``ClientEngine/startRoundTrip(_:)``).
struct RoundTrip {
    var generation: UInt64
    var finish: (Bool) -> Void
}
