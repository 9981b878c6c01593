import Dispatch

/// Runs blocking work (socket loops, waiting for a child process) on a Dispatch thread, so it
/// never holds one of the few threads of Swift's cooperative pool that other suites' tasks run on.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
