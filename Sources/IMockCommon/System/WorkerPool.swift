#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Synchronization

/// Threads for CPU-bound work that must not hold up an event loop — deriving password hashes
/// for a registration of 60 users takes tens of milliseconds (docs/BENCHMARKS.md). Jobs start
/// in submission order on whichever thread is free; a job must not touch loop-confined state:
/// it computes, and hands its result back (to an event loop with `EventLoop.execute`).
public final class WorkerPool: @unchecked Sendable {
    /// The process's pool, one thread per online core at nice 10 — the event loop's thread
    /// comes first when both want a core — started on first use and kept for the life of the
    /// process.
    public static let shared = WorkerPool(threads: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), niceness: 10)

    /// How many threads run jobs.
    public let threadCount: Int
    private let queue = Mutex(JobQueue())
    /// Counts queued jobs; a thread waits on it for the next one. (Allocated once, never moved:
    /// a `sem_t` must stay at one address.)
    private let waiting: UnsafeMutablePointer<sem_t>

    /// Queued jobs in batches (one per `map`, one job per `run`), served round-robin: a thread
    /// takes the next job of the first batch, and the batch goes to the back if it has more.
    /// A registration of one user so waits for a job of each batch ahead of it, not for all
    /// sixty of a batch registration that came first.
    private struct JobQueue {
        typealias Job = @Sendable () -> Void

        struct Batch {
            var jobs: [Job]
            var next = 0
        }

        var batches: [Batch] = []
        var head = 0
        var stopping = false

        var waitingCount: Int { batches[head...].reduce(0) { $0 + $1.jobs.count - $1.next } }

        mutating func add(_ jobs: [Job]) {
            batches.append(Batch(jobs: jobs))
        }

        mutating func take() -> Job? {
            guard head < batches.count else { return nil }
            var batch = batches[head]
            batches[head] = Batch(jobs: [])  // the jobs are not held twice (no copy on write below)
            head += 1
            let job = batch.jobs[batch.next]
            batch.next += 1
            if batch.next < batch.jobs.count { batches.append(batch) }
            if head == batches.count {
                batches.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= batches.count {
                batches.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    /// The nice value the threads run at (Linux schedules threads one by one).
    public let niceness: Int32

    /// Starts `threads` threads (at least one) at nice `niceness` (0 as the process by default).
    public init(threads: Int, niceness: Int32 = 0) {
        threadCount = max(1, threads)
        self.niceness = niceness
        waiting = .allocate(capacity: 1)
        sem_init(waiting, 0, 0)
        for _ in 0..<threadCount {
            let box = Unmanaged.passRetained(self)
            var thread = pthread_t()
            // A SIGTERM meant for a server's loop (its signalfd) must never land here.
            let result = startQuietThread(&thread, workerThreadMain, box.toOpaque())
            precondition(result == 0, "pthread_create failed: \(result)")
            pthread_detach(thread)
        }
    }

    // Every thread holds the pool, so this runs after `stop()` once the last one ended.
    deinit {
        sem_destroy(waiting)
        waiting.deallocate()
    }

    /// How many queued jobs no thread has started yet.
    public var waitingJobCount: Int { queue.withLock { $0.waitingCount } }

    /// Runs `job` on a pool thread.
    public func run(_ job: @escaping @Sendable () -> Void) {
        enqueue([job])
    }

    /// Runs `transform` for every element of `items`, spread over the threads, and calls
    /// `completion` once with the results in the order of `items`, on the thread that finished
    /// last (at once, on the caller's thread, when `items` is empty). The items are one batch
    /// of the round-robin: other work queued meanwhile is not held behind all of them.
    public func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], _ transform: @escaping @Sendable (Item) -> Result,
        completion: @escaping @Sendable ([Result]) -> Void
    ) {
        guard !items.isEmpty else { return completion([]) }
        let gathered = Mutex(Gathered<Result>(results: Array(repeating: nil, count: items.count)))
        enqueue(
            items.enumerated().map { index, item in
                {
                    let result = transform(item)
                    let finished: [Result]? = gathered.withLock { gathered in
                        gathered.results[index] = result
                        gathered.done += 1
                        return gathered.done == gathered.results.count ? gathered.results.map { $0! } : nil
                    }
                    if let finished { completion(finished) }
                }
            })
    }

    private func enqueue(_ jobs: [@Sendable () -> Void]) {
        let accepted = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.add(jobs)
            return true
        }
        guard accepted else { return }
        for _ in jobs { sem_post(waiting) }
    }

    private struct Gathered<Result> {
        var results: [Result?]
        var done = 0
    }

    /// Lets the threads finish the jobs already queued and end; later jobs are dropped.
    /// (The shared pool is never stopped.)
    public func stop() {
        queue.withLock { $0.stopping = true }
        for _ in 0..<threadCount { sem_post(waiting) }
    }

    fileprivate func work() {
        // Linux applies a nice value to the calling thread alone; not being allowed to is harmless.
        if niceness != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
        while true {
            while sem_wait(waiting) != 0 {}  // EINTR
            let next: (job: (@Sendable () -> Void)?, stop: Bool) = queue.withLock { queue in
                let job = queue.take()
                return (job, job == nil && queue.stopping)
            }
            if next.stop { return }
            next.job?()
        }
    }
}

private func workerThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let pool = Unmanaged<WorkerPool>.fromOpaque(context).takeRetainedValue()
    pool.work()
    return nil
}
