import IMockNet
import Synchronization

/// Stops a server's loop thread exactly once: by ``stop(beforeStopping:)``, or — when a test threw
/// before it got there — when the fixture holding this goes away. The loop's connections call
/// into their server until the loop has stopped, so the server is kept alive until then; freeing
/// it first aborts the whole test process on an `unowned` reference, hiding every other result.
public final class ServerLoopOwner: @unchecked Sendable {
    public let loop: EventLoop
    private let server: AnyObject
    private let stopped = Atomic(false)

    /// `server` is the object the loop's connections and routes refer to (a `MockServer`).
    public init(loop: EventLoop, server: AnyObject) {
        self.loop = loop
        self.server = server
    }

    /// Runs `beforeStopping` on the loop thread (the server's shutdown), stops the loop and waits
    /// until it has stopped. Later calls do nothing.
    public func stop(beforeStopping: @escaping @Sendable () -> Void = {}) async {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        loop.execute(beforeStopping)
        loop.stop()
        await loop.waitUntilStopped()
    }

    deinit {
        guard !stopped.load(ordering: .acquiring) else { return }
        let loop = loop
        let server = UncheckedBox(server)
        loop.stop()
        Task {
            await loop.waitUntilStopped()
            withExtendedLifetime(server) {}
        }
    }
}
