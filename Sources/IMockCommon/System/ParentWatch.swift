#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Ends this process gracefully (SIGTERM to itself) when the process that started it ends: a
/// server started by a test runner, `imock soak` or `imock exec` that is itself killed with
/// SIGKILL would otherwise live on, holding its port. A quiet thread looks at the parent's pid
/// every 200 ms; once the process was re-parented (its parent ended), it sends the signal, which
/// the event loop takes as it takes a `kill` (a graceful stop, the last commit).
///
/// Polled because `PR_SET_PDEATHSIG` follows the parent *thread* that spawned the process, and
/// a pool thread of the spawner may end while the spawner lives on.
public enum ParentWatch {
    /// Starts watching the current parent; false when the thread could not start.
    @discardableResult
    public static func start() -> Bool {
        var thread = pthread_t()
        let parent = UnsafeMutableRawPointer(bitPattern: Int(getppid()))
        return startQuietThread(&thread, { context in
            let parent = pid_t(Int(bitPattern: context))
            while getppid() == parent { usleep(200_000) }
            kill(getpid(), SIGTERM)
            return nil
        }, parent) == 0
    }
}
