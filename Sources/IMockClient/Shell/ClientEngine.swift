import IMockCore
import IMockNet
import Synchronization

/// The I/O shell: owns the ``ClientStateMachine`` and carries out its actions, all on one event
/// loop thread. Events are handled one at a time in arrival order; an event that an action
/// produces (database opened, message stored, a synchronous socket failure) is queued behind
/// the current one, never handled re-entrantly.
final class ClientEngine: @unchecked Sendable {
    let loop: EventLoop
    let endpoint: ServerEndpoint
    let tls: TLSContext?
    let clock: any Clock
    let dataDirectory: DataDirectory?
    let log: CallbackLog
    let delegates: DelegateRegistry
    /// Read from any thread; written on the loop after each event.
    let status: Mutex<ClientStatus>
    private let problems = Mutex<[String]>([])
    /// Every hop onto the loop that someone waits for passes here, so shutdown can end it.
    let gate = ShutdownGate()
    private let notLoggedInCode: Int

    // Loop-confined.
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

    init(
        machine: ClientStateMachine, loop: EventLoop, endpoint: ServerEndpoint, tls: TLSContext?, clock: any Clock,
        dataDirectory: DataDirectory?, timerMode: ClientTimerMode, log: CallbackLog, delegates: DelegateRegistry
    ) {
        self.machine = machine
        self.notLoggedInCode = machine.options.profile.rules.notLoggedIn
        self.loop = loop
        self.endpoint = endpoint
        self.tls = tls
        self.clock = clock
        self.dataDirectory = dataDirectory
        self.log = log
        self.delegates = delegates
        self.timers = TimerTable(mode: timerMode, loop: loop)
        self.savedLastOnlineUser = machine.lastOnlineUser
        self.status = Mutex(ClientStatus(lastOnlineUser: machine.lastOnlineUser))
    }

    /// Things that went wrong in the shell (database writes, the `lastOnlineUser` file, ignored frames).
    var problemLog: [String] { problems.withLock { $0 } }

    // MARK: Entry points (any thread)

    /// Handles `event` on the loop; `call` is the API call it came from. After ``beginShutdown()``
    /// the call fails at once with ``shutDownError``, and so does one whose event was queued
    /// but not yet handled when shutdown began (the loop may never run it).
    func submit(_ event: ClientEvent, call: PendingCall? = nil) {
        let error = shutDownError
        guard let ticket = gate.enter(abort: { call?.fail(error) }) else {
            call?.fail(error)
            return
        }
        loop.execute { [self] in
            guard gate.claim(ticket) else { return }
            feed(event, call: call)
        }
    }

    /// What calls waiting at, or made after, ``shutdown()`` get.
    var shutDownError: ClientError { ClientError(code: notLoggedInCode, message: "the client was shut down") }

    /// Whether shutdown began.
    var hasShutDown: Bool { gate.isClosed }

    /// Runs `body` on the loop and returns its result; `fallback` when shutdown begins first.
    func onLoop<T: Sendable>(orElse fallback: T, _ body: @escaping @Sendable (ClientEngine) -> T) async -> T {
        await startOnLoop(orElse: fallback) { engine, finish in finish(body(engine)) }
    }

    /// Runs `start` on the loop; it calls `finish` once with the result, at once or later (after
    /// I/O). When shutdown begins before `finish`, the caller gets `fallback` at once instead.
    func startOnLoop<T: Sendable>(
        orElse fallback: T, _ start: @escaping @Sendable (ClientEngine, _ finish: @escaping (T) -> Void) -> Void
    ) async -> T {
        await withCheckedContinuation { continuation in
            guard let ticket = gate.enter(abort: { continuation.resume(returning: fallback) }) else {
                continuation.resume(returning: fallback)
                return
            }
            loop.execute { [self] in
                guard !gate.isClosed else { return }  // aborted already
                start(self) { [gate] value in
                    if gate.claim(ticket) { continuation.resume(returning: value) }
                }
            }
        }
    }

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
        status.withLock { $0 = snapshot }
        guard snapshot.lastOnlineUser != savedLastOnlineUser else { return }
        savedLastOnlineUser = snapshot.lastOnlineUser
        do throws(ClientError) {
            try dataDirectory?.writeLastOnlineUser(snapshot.lastOnlineUser)
        } catch {
            note("lastOnlineUser: \(error.message)")
        }
    }

    func note(_ problem: String) {
        problems.withLock { $0.append(problem) }
    }

    // MARK: Test and harness hooks (loop side)

    /// The pending timers and their due times on the client's clock.
    var pendingTimers: [ClientTimer: Int64] { timers.dueTimes }

    /// Fires `timer` now if it is pending (manual timer mode).
    func fire(_ timer: ClientTimer) -> Bool {
        guard timers.take(timer) else { return false }
        feed(.timerFired(timer))
        return true
    }

    /// The ids of the messages stored in the open database of the current login.
    var storedMessageIDs: [String] { databases[machine.loginEpoch]?.messageIDs() ?? [] }

    /// Starts shutting down (any thread): later calls fail at once, and so do calls and hops
    /// still queued for the loop.
    func beginShutdown() {
        gate.close()
    }

    /// Closes sockets, timers and databases without telling the state machine (the client is going
    /// away); waiting calls fail with ``shutDownError``, and so do later ones. Loop side.
    func shutdown() {
        gate.close()
        for completion in calls.failAll(shutDownError) { completion() }
        queue = []
        timers.cancelAll()
        finishRoundTrips(generation: nil)
        for link in links.values { link.close(code: CloseCode.normal) }
        links = [:]
        for database in databases.values { database.close() }
        databases = [:]
    }

    /// Runs ``shutdown()`` on the loop (not through the gate: it must run even after ``beginShutdown()``).
    func shutdownOnLoop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute { [self] in
                shutdown()
                continuation.resume()
            }
        }
    }
}

/// A ping of the shell's own waiting for its pong (``ClientEngine/startRoundTrip(_:)``).
struct RoundTrip {
    var generation: UInt64
    var finish: (Bool) -> Void
}
