#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims
import IMockCommon
import Synchronization

/// Identifies a timer of an ``EventLoop`` so that it can be cancelled.
public typealias LoopTimerID = IMockCommon.TimerID

/// A single-threaded event loop on level-triggered epoll.
///
/// Everything registered with the loop (sockets, timers, handlers) belongs to its thread:
/// only `execute(_:)`, `submit(_:)`, `stop()` and `inEventLoop` may be called from other threads.
/// Cross-thread tasks wake the loop through an eventfd; timers use one timerfd on
/// `CLOCK_MONOTONIC`, re-armed only when the earliest deadline changes. Each registration gets
/// an id stored next to the fd in the epoll data, so a late event for a closed and reused fd
/// number is recognised and dropped.
public final class EventLoop: @unchecked Sendable {
    private struct Registration {
        var id: UInt32
        var interest: IOInterest
        var handler: any IOHandler
    }

    private let epollFD: Int32
    private let wakeFD: Int32
    private let timerFD: Int32
    private static let wakeToken: UInt64 = UInt64.max
    private static let timerToken: UInt64 = UInt64.max - 1

    // Loop-confined state.
    private var registrations = DescriptorTable<Registration>()
    private var nextRegistrationID: UInt32 = 1
    private var timers = DeadlineQueue<MonotonicInstant, () -> Void>()
    private var armedDeadline: MonotonicInstant?
    private let eventBufferSize = 512
    private var turnEndHooks: [() -> Void] = []
    /// Connections written to during this turn, flushed once at its end.
    private var connectionsToFlush: [Connection] = []

    /// Whether connections on this loop hold their output until the end of the loop turn that
    /// wrote it, after the ``onTurnEnd(_:)`` hooks ran (a server that commits the turn's changes
    /// before answering, docs/PERSISTENCE.md). Off by default: output is written at once.
    /// Loop-confined; set it before the loop runs, or on its thread.
    public var holdsOutputUntilTurnEnd = false

    // Shared state.
    private let pendingTasks = Mutex<[@Sendable () -> Void]>([])
    private let stopRequested = Atomic<Bool>(false)
    private let loopThread = Mutex<pthread_t?>(nil)
    private let finished = Mutex<[CheckedContinuation<Void, Never>]?>([])

    /// Creates the loop's epoll, eventfd and timerfd descriptors.
    public init() throws(SystemError) {
        epollFD = try syscallChecked("epoll_create1") { cimock_epoll_create() }
        wakeFD = try syscallChecked("eventfd") { cimock_eventfd() }
        timerFD = try syscallChecked("timerfd_create") { cimock_timerfd_create() }
        _ = try syscallChecked("epoll_ctl") {
            cimock_epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, cimock_epollin(), EventLoop.wakeToken)
        }
        _ = try syscallChecked("epoll_ctl") {
            cimock_epoll_ctl(epollFD, EPOLL_CTL_ADD, timerFD, cimock_epollin(), EventLoop.timerToken)
        }
        _ = cimock_ignore_sigpipe()
    }

    /// One read buffer for every connection of this loop: reads happen one at a time on the loop
    /// thread and each copies out only the bytes it got, so no read allocates and zeroes its own
    /// 64 KiB. Loop-confined.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    deinit {
        readBuffer.deallocate()
        close(timerFD)
        close(wakeFD)
        close(epollFD)
    }

    // MARK: Threads

    /// Starts the loop on a new thread of its own.
    public func start() {
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, eventLoopThreadMain, box.toOpaque())
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }

    /// Runs the loop on the calling thread until `stop()` is called.
    public func run() {
        loopThread.withLock { $0 = pthread_self() }
        var events = [epoll_event](repeating: epoll_event(), count: eventBufferSize)
        while !stopRequested.load(ordering: .acquiring) {
            let count = events.withUnsafeMutableBufferPointer { buffer in
                cimock_epoll_wait(epollFD, buffer.baseAddress, Int32(buffer.count), -1)
            }
            if count < 0 {
                let code = cimock_errno()
                precondition(code == EINTR, "epoll_wait: \(SystemError("epoll_wait", code: code))")
                continue
            }
            for index in 0..<Int(count) {
                dispatch(events[index])
            }
            runPendingTasks()
            runDueTimers()
            endTurn()
            rearmTimer()
        }
        shutdown()
    }

    // MARK: Turns

    /// Calls `hook` on the loop thread at the end of every loop turn — after the turn's ready
    /// descriptors, tasks and due timers, before held output goes out (see
    /// ``holdsOutputUntilTurnEnd``). Loop-confined; register before the loop runs or on its thread.
    public func onTurnEnd(_ hook: @escaping () -> Void) {
        assertInLoopOrNotRunning()
        turnEndHooks.append(hook)
    }

    /// Writes the output held so far now, without waiting for the end of the turn (a server
    /// that committed and is about to close its connections). Loop-confined.
    public func releaseHeldOutput() {
        while !connectionsToFlush.isEmpty { flushConnections() }
    }

    /// Has `connection` write its queued output at the end of this turn: everything a turn of
    /// the loop sends to one peer (a reply and the frames after it, a kick and its close, an
    /// offline queue) leaves in one system call instead of one per message, and while the loop
    /// holds output (``holdsOutputUntilTurnEnd``) only after the turn-end hooks ran.
    func flushAtEndOfTurn(_ connection: Connection) {
        connectionsToFlush.append(connection)
    }

    /// The hooks, then the connections' output; again while flushing wrote more (a connection
    /// that failed and closed, whose handler wrote elsewhere), so every byte waits for a hook run.
    /// A loop that does not hold output writes before the hooks.
    private func endTurn() {
        if !holdsOutputUntilTurnEnd { releaseHeldOutput() }
        repeat {
            for hook in turnEndHooks { hook() }
            flushConnections()
        } while !connectionsToFlush.isEmpty
    }

    private func flushConnections() {
        let connections = connectionsToFlush
        connectionsToFlush.removeAll(keepingCapacity: true)
        for connection in connections { connection.flushDeferred() }
    }

    /// Asks the loop to stop after the current iteration; safe from any thread. Tasks given to
    /// ``execute(_:)`` before it still run, while the loop's sockets are open, and what they
    /// write goes out: a caller that asks for a server's shutdown and then stops the loop gets
    /// the shutdown's goodbyes whether the loop was asleep or in the middle of a turn.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
        wake()
    }

    /// Waits until the loop has stopped and told every still-registered handler to close its
    /// descriptor (`IOHandler.loopDidStop`).
    public func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            let alreadyDone = finished.withLock { waiters -> Bool in
                guard waiters != nil else { return true }
                waiters!.append(continuation)
                return false
            }
            if alreadyDone { continuation.resume() }
        }
    }

    /// Whether the caller runs on this loop's thread.
    public var inEventLoop: Bool {
        loopThread.withLock { thread in thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Runs `task` on the loop thread soon; safe from any thread.
    public func execute(_ task: @escaping @Sendable () -> Void) {
        pendingTasks.withLock { $0.append(task) }
        wake()
    }

    /// Runs `body` on the loop thread and returns its result to an async caller.
    public func submit<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            execute {
                continuation.resume(with: Result { try body() })
            }
        }
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    private func runPendingTasks() {
        let tasks = pendingTasks.withLock { tasks in
            defer { tasks.removeAll(keepingCapacity: true) }
            return tasks
        }
        for task in tasks { task() }
    }

    private func shutdown() {
        // A busy loop sees the stop at the end of its turn, before the tasks queued meanwhile:
        // they run now, as a turn would have run them, before the sockets are closed under them.
        runPendingTasks()
        endTurn()
        for (fd, registration) in registrations.all {
            deregister(fd: fd)
            registration.handler.loopDidStop()
        }
        runPendingTasks()
        let waiters = finished.withLock { waiters in
            defer { waiters = nil }
            return waiters ?? []
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Registration

    /// Registers `fd` for `interest`; the loop calls `handler` when it is ready.
    public func register(fd: Int32, interest: IOInterest, handler: any IOHandler) throws(SystemError) {
        assertInLoopOrNotRunning()
        let id = nextRegistrationID
        nextRegistrationID = nextRegistrationID == UInt32.max - 2 ? 1 : nextRegistrationID + 1
        _ = try syscallChecked("epoll_ctl") {
            cimock_epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, interest.epollFlags, EventLoop.packToken(id: id, fd: fd))
        }
        registrations[fd] = Registration(id: id, interest: interest, handler: handler)
    }

    /// Changes what `fd` waits for; a no-op when the interest is unchanged.
    public func setInterest(fd: Int32, _ interest: IOInterest) throws(SystemError) {
        guard var registration = registrations[fd], registration.interest != interest else { return }
        _ = try syscallChecked("epoll_ctl") {
            cimock_epoll_ctl(
                epollFD, EPOLL_CTL_MOD, fd, interest.epollFlags, EventLoop.packToken(id: registration.id, fd: fd))
        }
        registration.interest = interest
        registrations[fd] = registration
    }

    /// Removes `fd` from the loop. Call it before closing the descriptor.
    public func deregister(fd: Int32) {
        guard registrations.removeValue(forKey: fd) != nil else { return }
        _ = cimock_epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, 0, 0)
    }

    private static func packToken(id: UInt32, fd: Int32) -> UInt64 {
        UInt64(id) << 32 | UInt64(UInt32(bitPattern: fd))
    }

    private func dispatch(_ event: epoll_event) {
        var event = event
        let token = cimock_epoll_event_data(&event)
        switch token {
        case EventLoop.wakeToken:
            var value: UInt64 = 0
            _ = read(wakeFD, &value, 8)
        case EventLoop.timerToken:
            var value: UInt64 = 0
            _ = read(timerFD, &value, 8)
            armedDeadline = nil
        default:
            let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: token))
            let id = UInt32(truncatingIfNeeded: token >> 32)
            // A registration that was replaced or removed earlier in this batch is stale.
            guard let registration = registrations[fd], registration.id == id else { return }
            registration.handler.handleIO(IOEvents(epollFlags: cimock_epoll_event_flags(&event)))
        }
    }

    private func assertInLoopOrNotRunning() {
        assert(isCallerAllowed, "must be called on the event loop thread")
    }

    /// Whether the caller may touch state confined to this loop: it runs on the loop's thread,
    /// or the loop has not started yet (set-up before `start()`).
    public var isCallerAllowed: Bool {
        loopThread.withLock { thread in thread.map { pthread_equal($0, pthread_self()) != 0 } ?? true }
    }

    // MARK: Timers

    /// Calls `body` on the loop thread after `delay` (on the monotonic clock).
    @discardableResult
    public func scheduleTimer(after delay: Duration, _ body: @escaping () -> Void) -> LoopTimerID {
        scheduleTimer(at: MonotonicInstant.now() + delay, body)
    }

    /// Calls `body` on the loop thread at `deadline`.
    @discardableResult
    public func scheduleTimer(at deadline: MonotonicInstant, _ body: @escaping () -> Void) -> LoopTimerID {
        assertInLoopOrNotRunning()
        let id = timers.schedule(at: deadline, body)
        if armedDeadline.map({ deadline < $0 }) ?? true { rearmTimer() }
        return id
    }

    /// Cancels a timer that has not fired yet.
    public func cancelTimer(_ id: LoopTimerID) {
        timers.cancel(id)
    }

    private func runDueTimers() {
        // Timers scheduled by a firing timer for "now" run in the next iteration, never here,
        // so a timer that re-schedules itself cannot starve I/O.
        for (_, body) in timers.popDue(now: MonotonicInstant.now()) { body() }
    }

    private func rearmTimer() {
        let next = timers.nextDeadline
        guard next != armedDeadline else { return }
        armedDeadline = next
        _ = cimock_timerfd_arm_absolute(timerFD, next.map { max($0.nanoseconds, 1) } ?? 0)
    }
}

private func eventLoopThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let loop = Unmanaged<EventLoop>.fromOpaque(context).takeRetainedValue()
    loop.run()
    return nil
}
