#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Starts a thread that never takes a signal: it begins with every signal blocked (a new thread
/// inherits its creator's mask, so the mask is set around `pthread_create`, with no window).
///
/// A process that stops on SIGTERM reads it from a signalfd on its event loop's thread; the
/// kernel gives a process-directed signal to any thread that does not block it, and on a thread
/// without a handler SIGTERM's default action ends the whole process — the graceful stop lost.
/// Helper threads (the worker pool, the store's checkpointer) are started this way, whenever
/// they start: before or after the loop's thread blocks its signals.
///
/// Returns `pthread_create`'s result (0 on success).
public func startQuietThread(
    _ thread: inout pthread_t, _ main: @escaping @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?,
    _ context: UnsafeMutableRawPointer?
) -> Int32 {
    var all = sigset_t()
    var previous = sigset_t()
    sigfillset(&all)
    pthread_sigmask(SIG_BLOCK, &all, &previous)
    let result = pthread_create(&thread, nil, main, context)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    return result
}
