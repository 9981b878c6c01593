#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims
import Synchronization

/// One non-blocking TCP connection on an event loop, optionally with TLS.
///
/// Output is queued and written as the socket accepts it (partial writes keep their offset,
/// `EPOLLOUT` is armed only while output waits). When more than `highWaterMark` bytes wait,
/// reading stops until the queue falls under `lowWaterMark`: a peer that does not read cannot
/// make the server buffer without bound. Confined to the loop thread.
public final class Connection: IOHandler {
    private enum State {
        case connecting
        case open
        /// Flushing, then FIN and lingering.
        case closingAfterFlush
        /// FIN sent; discarding input until EOF or the linger timer.
        case lingering
        case closed
    }

    /// A process-wide unique number for logs and fault targeting.
    public let id: UInt64
    public let loop: EventLoop
    public let fd: Int32
    // The fields are ordered so that the small ones pack into one word: a server holds one
    // of these per connection (docs/BENCHMARKS.md, `fleet`).
    private var state: State
    private var readingPaused = false
    private var userPausedReading = false
    /// Whether the loop will flush this connection's output at the end of its turn.
    private var flushPending = false
    /// Receives this connection's events; set it before the loop delivers any.
    public var handler: (any ConnectionHandler)?
    /// Told once after the handler's `connectionDidClose`, e.g. to drop a registry entry.
    public var closeObserver: ConnectionCloseObserver?

    /// Bytes queued for the socket (after TLS) that stop reading when exceeded.
    public static let highWaterMark = 256 * 1024
    public static let lowWaterMark = 64 * 1024
    /// How long a closing connection discards input before it gives up on the peer's FIN.
    public static let lingerTime: Duration = .seconds(2)
    static let maxReadsPerWake = 4

    private var output: [[UInt8]] = []
    private var outputOffset = 0
    /// Every byte ever queued for the peer (under TLS: the ciphertext): the offset in the
    /// outgoing stream just past what was written last.
    public private(set) var bytesQueuedTotal: UInt64 = 0
    /// Every byte the kernel took (at the close: every byte queued, none waits any more).
    private var bytesSentTotal: UInt64 = 0
    /// What few connections use, behind one reference made on first use (``Occasional``).
    private var occasional: Occasional?

    /// A connection's state that only some connections, or only a closing one, ever have: a
    /// client's connect completion, a slicing toxic, a drain watch, close actions, the linger
    /// timer, the acknowledgement count at the close, and a TLS connection's session. Inline
    /// it cost every connection ~110 bytes (docs/BENCHMARKS.md, `fleet`).
    private final class Occasional {
        /// A TLS connection's session (its OpenSSL state dwarfs this object).
        var tls: TLSSession?
        var connectCompletion: ((SystemError?) -> Void)?
        /// A slicing toxic's slice size and delay (``outputSlicing``).
        var slicing: (bytes: Int, delay: Duration)?
        /// The timer that lets the next slice of output go.
        var sliceTimer: LoopTimerID?
        /// What to run once the queued output falls under a mark (``whenOutputDrains(below:_:)``).
        var drainWatch: (belowBytes: Int, action: () -> Void)?
        /// Run once when the socket is closed (after a lingering close's last exchange).
        var socketCloseActions: [() -> Void] = []
        var lingerTimer: LoopTimerID?
        /// What the peer had acknowledged when the socket closed.
        var bytesAcknowledgedAtClose: UInt64?
    }

    /// The occasional state, made now if it was not yet.
    private var occasionalState: Occasional {
        if let occasional { return occasional }
        let made = Occasional()
        occasional = made
        return made
    }

    private var tls: TLSSession? { occasional?.tls }

    /// Bytes queued and not yet taken by the kernel.
    private var queuedBytes: Int { Int(bytesQueuedTotal - bytesSentTotal) }

    private var sliceTimer: LoopTimerID? {
        get { occasional?.sliceTimer }
        set { occasional?.sliceTimer = newValue }
    }
    private static let ids = IDGenerator()

    /// The remote address, asked of the socket (a copy in every connection cost 32 bytes);
    /// nil once the connection is closed or when the socket cannot tell.
    public var peer: SocketAddress? {
        guard state != .closed else { return nil }
        return Socket.peerAddress(fd)
    }

    /// Wraps an accepted descriptor. Call `activate()` on the loop thread to start reading.
    public init(loop: EventLoop, acceptedFD fd: Int32, tls: TLSContext? = nil) {
        self.id = Connection.ids.next()
        self.loop = loop
        self.fd = fd
        self.state = .open
        if let tls { occasionalState.tls = TLSSession(context: tls, role: .server, serverName: nil) }
        Socket.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
    }

    /// Starts a non-blocking connect to `address`; `completion` runs on the loop thread with nil
    /// on success (then the handler becomes active) or the connect error. `receiveBufferBytes`
    /// sets `SO_RCVBUF` before the connect (so the window it offers is that small from the
    /// start): a client that stops reading then holds back its peer after that many bytes.
    public static func connect(
        loop: EventLoop, to address: SocketAddress, tls: TLSContext? = nil, serverName: String? = nil,
        receiveBufferBytes: Int? = nil, handler: any ConnectionHandler, completion: @escaping (SystemError?) -> Void
    ) throws(SystemError) -> Connection {
        let fd = try Socket.makeTCP(family: address.family)
        if let receiveBufferBytes {
            Socket.setOption(fd, level: SOL_SOCKET, name: SO_RCVBUF, value: Int32(clamping: receiveBufferBytes))
        }
        let connection = Connection(
            loop: loop, fd: fd, tls: tls.map { TLSSession(context: $0, role: .client, serverName: serverName) })
        connection.handler = handler
        connection.occasionalState.connectCompletion = completion
        let result = address.withSockAddr { Glibc.connect(fd, $0, $1) }
        if result < 0, cimock_errno() != EINPROGRESS {
            let error = SystemError("connect", code: cimock_errno())
            Glibc.close(fd)
            throw error
        }
        Socket.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
        try loop.register(fd: fd, interest: .write, handler: connection)
        return connection
    }

    private init(loop: EventLoop, fd: Int32, tls: TLSSession?) {
        self.id = Connection.ids.next()
        self.loop = loop
        self.fd = fd
        self.state = .connecting
        if let tls { occasionalState.tls = tls }
    }

    /// Registers an accepted connection with the loop and tells the handler it is active.
    public func activate() throws(SystemError) {
        try loop.register(fd: fd, interest: .read, handler: self)
        handler?.connectionDidBecomeActive(self)
    }

    /// Runs `action` once the socket is closed (not only the protocol's conversation: a closing
    /// connection lingers to let the peer take the last of its output) — at once when it is.
    public func whenSocketCloses(_ action: @escaping () -> Void) {
        if state == .closed { action() } else { occasionalState.socketCloseActions.append(action) }
    }

    /// Under TLS, whether its handshake resumed an earlier session (nil without TLS).
    public var tlsSessionResumed: Bool? { tls?.isResumed }

    /// Whether the connection can still send.
    public var isOpen: Bool { state == .open || state == .connecting }

    /// The number of bytes waiting to be written to the socket.
    public var pendingOutputBytes: Int { queuedBytes }

    // MARK: Writing

    /// Writes go to the socket in slices of at most `bytes`, each `delay` after the one before
    /// (a network toxic: a peer then reads frames cut anywhere); nil writes as fast as the
    /// socket takes them.
    public var outputSlicing: (bytes: Int, delay: Duration)? {
        get { occasional?.slicing }
        set {
            guard let newValue else {
                guard occasional?.slicing != nil else { return }
                occasionalState.slicing = nil
                guard let timer = sliceTimer else { return }
                sliceTimer = nil
                loop.cancelTimer(timer)
                if state == .open || state == .closingAfterFlush { requestFlush() }
                return
            }
            occasionalState.slicing = newValue
        }
    }

    /// Queues bytes for the peer (encrypting them under TLS); the loop writes them at the end of
    /// its current iteration, together with whatever else this connection is sent meanwhile.
    public func write(_ bytes: [UInt8]) {
        guard isOpen, !bytes.isEmpty else { return }
        if let tls {
            do {
                try tls.writePlaintext(bytes)
            } catch {
                fail(error)
                return
            }
            enqueueRaw(tls.takeOutgoing())
        } else {
            enqueueRaw(bytes)
        }
        guard state == .open else { return }
        if queuedBytes >= Connection.deferredWriteLimit, !loop.holdsOutputUntilTurnEnd {
            // Enough for one system call: written now, so that deferral never holds more
            // than this (the output limits count what the socket did not take).
            flushPending = false
            flush()
        } else {
            deferFlush()
        }
    }

    /// Output beyond this is written at once rather than at the end of the turn (unless the
    /// loop holds output until its commit).
    static let deferredWriteLimit = 32 * 1024

    /// Has the loop flush this connection at the end of its turn (once, however often asked).
    private func deferFlush() {
        guard !flushPending else { return }
        flushPending = true
        loop.flushAtEndOfTurn(self)
    }

    /// The loop's end-of-turn flush.
    func flushDeferred() {
        guard flushPending else { return }
        flushPending = false
        if state == .open || state == .closingAfterFlush { flush() }
    }

    private func enqueueRaw(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        output.append(bytes)
        bytesQueuedTotal += UInt64(bytes.count)
    }

    /// How many bytes of the outgoing stream (offsets as ``bytesQueuedTotal`` counts them) the
    /// peer's TCP has acknowledged: what reached the device's kernel, whatever its app did
    /// with it. After the close, what it had acknowledged then. A socket that cannot tell
    /// (not TCP) counts nothing as acknowledged.
    public var bytesAcknowledgedByPeer: UInt64 {
        if let acknowledged = occasional?.bytesAcknowledgedAtClose { return acknowledged }
        return acknowledgedNow()
    }

    private func acknowledgedNow() -> UInt64 {
        let unacknowledged = cimock_unacknowledged_output(fd)
        guard unacknowledged >= 0, UInt64(unacknowledged) <= bytesSentTotal else { return 0 }
        return bytesSentTotal - UInt64(unacknowledged)
    }

    /// Flushes now, or at the end of the loop turn while the loop holds output: then nothing
    /// this turn wrote leaves before the turn's hooks ran (a server's commit).
    private func requestFlush() {
        if loop.holdsOutputUntilTurnEnd { deferFlush() } else { flush() }
    }

    /// Writes queued output until the socket would block; arms or disarms `EPOLLOUT`. Several
    /// queued chunks (a frame and the close after it, an offline queue) go out in one system
    /// call, up to ``chunksPerWrite`` at a time.
    private func flush() {
        guard sliceTimer == nil else { return }  // the next slice waits for its time
        while !output.isEmpty {
            let written: Int
            switch Result(catching: { () throws(SystemError) in try sendQueued(limit: outputSlicing?.bytes) }) {
            case .success(.done(let count)): written = count
            case .success(.wouldBlock): written = -1
            case .failure(let error):
                fail(error)
                return
            }
            guard written >= 0 else { break }
            bytesSentTotal += UInt64(written)
            consumeOutput(written)
            if let slicing = outputSlicing, slicing.delay > .zero, !output.isEmpty {
                sliceTimer = loop.scheduleTimer(after: slicing.delay) { [weak self] in self?.nextSlice() }
                break
            }
        }
        if output.isEmpty, state == .closingAfterFlush {
            startLingering()
            return
        }
        updateInterest()
        runDrainWatchIfDrained()
    }

    private func nextSlice() {
        sliceTimer = nil
        if state == .open || state == .closingAfterFlush { flush() }
    }

    /// Runs `action` once (on a later turn of the loop) when fewer than `bytes` of output wait
    /// for the socket — at once when that is already so; replaces an earlier watch. Nothing runs
    /// once the connection is closing. A writer that produces faster than its peer reads (an
    /// offline sync) writes a share, then waits for this.
    public func whenOutputDrains(below bytes: Int, _ action: @escaping () -> Void) {
        occasionalState.drainWatch = (bytes, action)
        runDrainWatchIfDrained()
    }

    private func runDrainWatchIfDrained() {
        guard let watch = occasional?.drainWatch, queuedBytes < watch.belowBytes, state == .open else { return }
        occasional?.drainWatch = nil
        // On the next turn: the action writes, and a write flushes (and may drain) at once.
        _ = loop.scheduleTimer(after: .zero) { watch.action() }
    }

    /// One system call's worth of the queued output: the first chunk alone (at most `limit`
    /// bytes of it), or several gathered.
    private func sendQueued(limit: Int?) throws(SystemError) -> IOResult<Int> {
        let offset = outputOffset
        guard output.count > 1, limit == nil else {
            let end = min(output[0].count, offset + (limit ?? output[0].count))
            return try output[0].withUnsafeBytes { buffer in
                Result { () throws(SystemError) in try Socket.send(fd, UnsafeRawBufferPointer(rebasing: buffer[offset..<end])) }
            }.get()
        }
        return try Socket.send(fd, output.prefix(Connection.chunksPerWrite), firstOffset: offset)
    }

    /// At most this many queued chunks are gathered into one write (Linux allows 1,024).
    static let chunksPerWrite = 64

    /// Drops `count` written bytes from the front of the queued output.
    private func consumeOutput(_ count: Int) {
        var left = count
        var whole = 0
        var offset = outputOffset
        while whole < output.count, left >= output[whole].count - offset {
            left -= output[whole].count - offset
            whole += 1
            offset = 0
        }
        if whole == output.count {
            output = []  // released, not kept: an idle connection holds no buffer
        } else {
            output.removeFirst(whole)  // all at once: one move of the rest, not one per chunk
        }
        outputOffset = offset + left
    }

    // MARK: Reading

    /// Stops delivering input until `resumeReading()`; the kernel buffers and then TCP
    /// flow control pushes back on the peer.
    public func pauseReading() {
        userPausedReading = true
        updateInterest()
    }

    public func resumeReading() {
        userPausedReading = false
        updateInterest()
    }

    private func updateInterest() {
        guard state != .closed, state != .connecting else { return }
        if queuedBytes > Connection.highWaterMark { readingPaused = true }
        if queuedBytes < Connection.lowWaterMark { readingPaused = false }
        var interest: IOInterest = []
        if !output.isEmpty, sliceTimer == nil { interest.insert(.write) }
        let wantsRead = state == .lingering || (!readingPaused && !userPausedReading)
        if wantsRead { interest.insert(.read) }
        try? loop.setInterest(fd: fd, interest)
    }

    public func handleIO(_ events: IOEvents) {
        if state == .connecting {
            finishConnect()
            return
        }
        if events.contains(.writable) || events.contains(.error) { requestFlush() }
        guard state != .closed else { return }
        if events.contains(.readable) || events.contains(.hangup) || events.contains(.error) {
            readAvailable()
        }
        // A connection that stopped reading asks epoll for nothing but output, yet a reset or
        // a failed socket is reported (EPOLLERR, EPOLLHUP) on every wake whatever the interest:
        // nothing will read the news, so take it now instead of spinning until reading resumes.
        if state == .open, readingPaused || userPausedReading, events.contains(.error) || events.contains(.hangup) {
            let code = Socket.pendingError(fd)
            finishClose(error: code == 0 || code == ECONNRESET ? nil : SystemError("socket", code: code))
        }
    }

    private func readAvailable() {
        let buffer = loop.readBuffer
        for _ in 0..<Connection.maxReadsPerWake {
            guard state != .closed, state == .lingering || (!readingPaused && !userPausedReading) else { return }
            let outcome = Result { () throws(SystemError) in try Socket.read(fd, into: buffer) }
            let result: IOResult<Int>
            switch outcome {
            case .success(let value):
                result = value
            case .failure(let error):
                finishClose(error: error.code == ECONNRESET ? nil : error)
                return
            }
            switch result {
            case .wouldBlock:
                return
            case .done(0):
                if state == .lingering {
                    finishClose(error: nil)
                } else {
                    handler?.connectionDidReachEOF(self)
                }
                return
            case .done(let count):
                if state == .lingering { continue }
                deliver(Array(UnsafeRawBufferPointer(rebasing: buffer[0..<count])))
                if count < buffer.count { return }
            }
        }
    }

    private func deliver(_ raw: [UInt8]) {
        guard let tls else {
            handler?.connection(self, didReceive: raw)
            return
        }
        let plaintext: [UInt8]
        do {
            // The loop's read buffer is free again: `raw` is a copy.
            plaintext = try tls.receiveCiphertext(raw, scratch: loop.readBuffer)
        } catch {
            enqueueRaw(tls.takeOutgoing())
            fail(error)
            return
        }
        enqueueRaw(tls.takeOutgoing())
        if !output.isEmpty, isOpen { requestFlush() }
        if !plaintext.isEmpty { handler?.connection(self, didReceive: plaintext) }
        if tls.peerSentCloseNotify, state == .open { handler?.connectionDidReachEOF(self) }
    }

    // MARK: Connecting

    private func finishConnect() {
        let code = Socket.pendingError(fd)
        let completion = occasional?.connectCompletion
        occasional?.connectCompletion = nil
        if code != 0 {
            let error = SystemError("connect", code: code)
            finishClose(error: error)
            completion?(error)
            return
        }
        state = .open
        if let tls {
            tls.startHandshake()
            enqueueRaw(tls.takeOutgoing())
        }
        updateInterest()
        completion?(nil)
        handler?.connectionDidBecomeActive(self)
        requestFlush()
    }

    // MARK: Closing

    /// Closes the connection; see `CloseMode`. Calling it again is harmless. Output written
    /// before the close is sent first, as far as the socket takes it (also for `.immediately`
    /// and `.reset`, as when writes went out at once) — except output the loop still holds for
    /// its commit (``EventLoop/holdsOutputUntilTurnEnd``), which an immediate close drops.
    public func close(_ mode: CloseMode) {
        if flushPending, state == .open, !loop.holdsOutputUntilTurnEnd {
            flushPending = false
            flush()
        }
        switch (state, mode) {
        case (.closed, _):
            return
        case (_, .reset):
            _ = cimock_set_linger_zero(fd)
            finishClose(error: nil, resetting: true)
        case (_, .immediately):
            finishClose(error: nil)
        case (.open, .afterFlush):
            if let tls {
                tls.shutdown()
                enqueueRaw(tls.takeOutgoing())
            }
            state = .closingAfterFlush
            requestFlush()
        case (.connecting, .afterFlush):
            finishClose(error: nil)
        case (.closingAfterFlush, .afterFlush), (.lingering, .afterFlush):
            return
        }
    }

    private func startLingering() {
        state = .lingering
        Glibc.shutdown(fd, Int32(SHUT_WR))
        updateInterest()
        occasionalState.lingerTimer = loop.scheduleTimer(after: Connection.lingerTime) { [weak self] in
            self?.finishClose(error: nil)
        }
    }

    private func fail(_ error: any Error) {
        finishClose(error: error)
    }

    /// Closes the socket; `resetting`: a reset close, whose socket is not drained first.
    private func finishClose(error: (any Error)?, resetting: Bool = false) {
        guard state != .closed else { return }
        state = .closed
        if let lingerTimer = occasional?.lingerTimer { loop.cancelTimer(lingerTimer) }
        if let sliceTimer { loop.cancelTimer(sliceTimer) }
        loop.deregister(fd: fd)
        occasionalState.bytesAcknowledgedAtClose = acknowledgedNow()
        if !resetting { discardInput() }
        Glibc.close(fd)
        output.removeAll()
        bytesSentTotal = bytesQueuedTotal  // what waited is dropped
        let handler = self.handler
        self.handler = nil
        handler?.connectionDidClose(self, error: error)
        let closeObserver = self.closeObserver
        self.closeObserver = nil
        closeObserver?.connectionDidClose(self)
        let actions = occasional?.socketCloseActions ?? []
        occasional?.socketCloseActions = []
        for action in actions { action() }
    }

    /// Reads and drops what the peer sent and nobody read, so that closing sends a FIN after
    /// the output rather than a reset: a reset makes the peer's kernel discard what it had
    /// received and its app not yet read (messages counted as delivered). Bounded: a peer
    /// that keeps sending gets the reset after all.
    private func discardInput() {
        let buffer = loop.readBuffer
        for _ in 0..<Connection.maxReadsPerWake * 4 {
            guard case .success(.done(let count)) = Result(catching: { () throws(SystemError) in
                try Socket.read(fd, into: buffer)
            }), count > 0 else { return }
        }
    }

    /// The loop stopped: close the socket now.
    public func loopDidStop() {
        finishClose(error: nil)
    }

    /// Whether this connection speaks TLS.
    public var isSecure: Bool { tls != nil }
}

/// What a connection runs once it closed (after its handler's `connectionDidClose`): one object
/// for all of a server's connections, a word in each (a closure there cost two).
public final class ConnectionCloseObserver {
    private let action: (Connection) -> Void

    /// An observer that runs `action` with each connection that closed.
    public init(_ action: @escaping (Connection) -> Void) {
        self.action = action
    }

    func connectionDidClose(_ connection: Connection) { action(connection) }
}

/// Hands out increasing ids from any thread.
final class IDGenerator: Sendable {
    private let counter = Synchronization.Atomic<UInt64>(0)
    func next() -> UInt64 { counter.add(1, ordering: .relaxed).newValue }
}
