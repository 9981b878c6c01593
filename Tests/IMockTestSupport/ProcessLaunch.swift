import Foundation
import Synchronization

/// Starts child processes one at a time. Foundation's `Process.run()` on Linux copies shared
/// state (the environment, file actions) without a lock of its own; tests that start children
/// from several threads at once crashed inside it (`memcpy` in `Process.run`) now and then.
public enum ProcessLaunch {
    private static let lock = Mutex(())

    /// Runs `process`, serialized with every other launch of the test process.
    public static func run(_ process: Process) throws {
        try lock.withLock { _ in try process.run() }
    }
}
