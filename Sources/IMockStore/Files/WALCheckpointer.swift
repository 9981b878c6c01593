import IMockCommon
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the WAL checkpoints of a store on a thread of its own, with a connection of its own,
/// so that the loop thread's commits never pay for them.
///
/// A checkpoint copies the pages the WAL holds back into the database file and fsyncs both;
/// SQLite's automatic checkpoint runs it inside the commit that crosses 1000 WAL pages, which
/// put 5–10 ms spikes into the loop's p99 (docs/PERSISTENCE.md). Here the writer's WAL hook
/// only wakes this thread, which runs `PRAGMA wal_checkpoint(PASSIVE)`: a passive checkpoint
/// never takes the writer's lock, so commits go on while it copies, and once it has copied
/// everything the writer starts the WAL over at its next commit. It also runs every
/// ``interval`` so a quiet WAL is folded in too.
///
/// `@unchecked Sendable`: the connection is only used on the checkpointer's own thread (after
/// `init` hands it over); the descriptors are immutable; the rest is behind a `Mutex` or atomic.
final class WALCheckpointer: @unchecked Sendable {
    /// WAL size, in pages, at which a commit wakes the checkpointer (SQLite's own default for
    /// its automatic checkpoint).
    static let wakePages = 1000
    /// Longest time between two checkpoints, in milliseconds.
    static let intervalMs: Int32 = 1000

    private let database: SQLiteDatabase
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopping = Atomic<Bool>(false)
    private let failure = Mutex<StoreError?>(nil)
    private let completed = Atomic<Int>(0)
    private var thread = pthread_t()

    /// Opens a second connection to `path` and starts the thread.
    init(path: String, options: StoreOptions) throws(StoreError) {
        database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA busy_timeout = \(max(0, options.busyTimeoutMs))")
        try database.execute("PRAGMA synchronous = \(options.durability.synchronousPragma)")
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            database.close()
            throw .unavailable("cannot make the checkpointer's pipe: \(DataDirectory.lastError())")
        }
        wakeRead = descriptors[0]
        wakeWrite = descriptors[1]
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        let box = Unmanaged.passRetained(self)
        // A SIGTERM meant for the server's loop (its signalfd) must never land here.
        let result = startQuietThread(&thread, checkpointerThreadMain, box.toOpaque())
        guard result == 0 else {
            box.release()
            closeDescriptors()
            database.close()
            throw .unavailable("cannot start the checkpointer thread: error \(result)")
        }
    }

    /// Asks for a checkpoint soon; safe from any thread, never blocks.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // A full pipe already holds a wake-up.
    }

    /// Stops the thread (after the checkpoint it may be running) and closes its connection.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        pthread_join(thread, nil)
        closeDescriptors()
    }

    /// The error of the last checkpoint that failed, if the one after it has not succeeded.
    var lastFailure: StoreError? { failure.withLock { $0 } }

    /// How many checkpoints ran to their end.
    var completedCount: Int { completed.load(ordering: .relaxed) }

    /// The thread's loop: wait for a wake-up or the interval, checkpoint, until stopped.
    fileprivate func run() {
        var poller = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        var drain = [UInt8](repeating: 0, count: 64)
        while !stopping.load(ordering: .acquiring) {
            _ = poll(&poller, 1, WALCheckpointer.intervalMs)
            while read(wakeRead, &drain, drain.count) > 0 {}
            if stopping.load(ordering: .acquiring) { break }
            do throws(StoreError) {
                try database.execute("PRAGMA wal_checkpoint(PASSIVE)")
                failure.withLock { $0 = nil }
                completed.add(1, ordering: .relaxed)
            } catch {
                failure.withLock { $0 = error }
            }
        }
        database.close()
    }

    private func closeDescriptors() {
        _ = close(wakeRead)
        _ = close(wakeWrite)
    }
}

private func checkpointerThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<WALCheckpointer>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
