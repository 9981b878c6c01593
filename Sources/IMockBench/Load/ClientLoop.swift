#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import IMockNet

/// The load generator's event loop: every client connection of a scenario lives on it, on a
/// thread of its own. A phase is a closure run on the loop that reports once, through
/// `finish`, when it is done.
final class ClientLoop: Sendable {
    let loop: EventLoop

    /// Starts the loop's thread.
    init() throws(BenchError) {
        do {
            loop = try EventLoop()
        } catch {
            throw BenchError("cannot create the client event loop: \(error)")
        }
        loop.start()
    }

    /// Runs `phase` on the loop thread and waits for the value it finishes with.
    func run<T: Sendable>(_ phase: @escaping @Sendable (EventLoop, _ finish: @escaping (T) -> Void) -> Void) async -> T {
        await withCheckedContinuation { continuation in
            let loop = self.loop
            loop.execute {
                var finished = false
                phase(loop) { value in
                    guard !finished else { return }
                    finished = true
                    continuation.resume(returning: value)
                }
            }
        }
    }

    /// Stops the loop (its connections close).
    func stop() {
        loop.stop()
    }
}

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> Int64 { MonotonicInstant.now().nanoseconds }

/// Milliseconds between two monotonic readings.
func milliseconds(from start: Int64, to end: Int64) -> Double { Double(end - start) / 1e6 }

/// Debug tracing to stderr when IMOCK_BENCH_TRACE is set.
func benchTrace(_ message: @autoclosure () -> String) {
    guard getenv("IMOCK_BENCH_TRACE") != nil else { return }
    let line = "[bench \(monotonicNanoseconds() / 1_000_000)] \(message())\n"
    _ = line.withCString { fputs($0, stderr) }
}
