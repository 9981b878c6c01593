import IMockCommon
import Synchronization
import Testing

/// The worker threads that take CPU-bound work off event loops.
@Suite("WorkerPool")
struct WorkerPoolTests {
    /// Waits up to 10 s for `condition`.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test("map gives the results in the order of the items, once, whichever thread finished last")
    func mapKeepsOrder() async throws {
        let pool = WorkerPool(threads: 3)
        defer { pool.stop() }
        let calls = Mutex(0)
        let results = Mutex<[[Int]]>([])
        pool.map(Array(0..<200), { $0 * $0 }) { squares in
            calls.withLock { $0 += 1 }
            results.withLock { $0.append(squares) }
        }
        #expect(try await Self.eventually { calls.withLock { $0 } == 1 })
        #expect(results.withLock { $0 } == [(0..<200).map { $0 * $0 }])
        try await Task.sleep(for: .milliseconds(20))
        #expect(calls.withLock { $0 } == 1)
    }

    @Test("map of nothing completes at once on the caller's thread")
    func mapOfNothing() {
        let pool = WorkerPool(threads: 1)
        defer { pool.stop() }
        var got: [Int]?
        withUnsafeMutablePointer(to: &got) { pointer in
            let box = UncheckedPointer(pointer)
            pool.map([Int](), { $0 }) { box.pointer.pointee = $0 }
        }
        #expect(got == [])
    }

    @Test("jobs run on several threads at once")
    func runsInParallel() async throws {
        let pool = WorkerPool(threads: 2)
        defer { pool.stop() }
        let running = Mutex((now: 0, most: 0))
        let done = Mutex(0)
        for _ in 0..<2 {
            pool.run {
                running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                // Each waits for the other to have started (bounded: 5 s).
                for _ in 0..<500 where running.withLock({ $0.most }) < 2 { usleepMilliseconds(10) }
                running.withLock { $0.now -= 1 }
                done.withLock { $0 += 1 }
            }
        }
        #expect(try await Self.eventually { done.withLock { $0 } == 2 })
        #expect(running.withLock { $0.most } == 2)
    }

    @Test("the shared pool's threads run at nice 10, so an event loop's thread comes first")
    func sharedPoolIsNice() async throws {
        let seen = Mutex<Int32?>(nil)
        WorkerPool.shared.run { seen.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) } }
        #expect(try await Self.eventually { seen.withLock { $0 } != nil })
        #expect((seen.withLock { $0 } ?? 0) >= 10)  // more when the whole process runs nicer
        #expect(WorkerPool.shared.threadCount == Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    @Test("batches are served round-robin: a single job queued behind a batch waits for one of its jobs, not all; waitingJobCount counts what has not started")
    func roundRobin() async throws {
        let pool = WorkerPool(threads: 1)
        defer { pool.stop() }
        let gate = Mutex(false)
        let order = Mutex<[String]>([])
        // The one thread waits until the test opens the gate (at most a minute: a busy test run
        // may hold the test's task back for seconds).
        pool.run { for _ in 0..<6000 where !gate.withLock({ $0 }) { usleepMilliseconds(10) } }
        pool.map(Array(0..<5), { index in order.withLock { $0.append("batch \(index)") } }) { _ in }
        pool.run { order.withLock { $0.append("single") } }
        // Once the thread holds the gating job, the other six wait.
        #expect(try await Self.eventually { pool.waitingJobCount == 6 })
        gate.withLock { $0 = true }
        #expect(try await Self.eventually { order.withLock { $0.count } == 6 })
        #expect(pool.waitingJobCount == 0)
        #expect(order.withLock { $0 } == ["batch 0", "single", "batch 1", "batch 2", "batch 3", "batch 4"])
    }

    @Test("stop lets the queued jobs finish and drops later ones")
    func stopFinishesQueuedJobs() async throws {
        let pool = WorkerPool(threads: 1)
        let ran = Mutex<[Int]>([])
        for index in 0..<5 { pool.run { ran.withLock { $0.append(index) } } }
        pool.stop()
        pool.run { ran.withLock { $0.append(99) } }
        #expect(try await Self.eventually { ran.withLock { $0.count } == 5 })
        try await Task.sleep(for: .milliseconds(50))
        #expect(ran.withLock { $0 } == [0, 1, 2, 3, 4])
    }
}

private struct UncheckedPointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

private func usleepMilliseconds(_ milliseconds: UInt32) { usleep(milliseconds * 1000) }
