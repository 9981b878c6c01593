import Dispatch
import Synchronization

/// A first-in first-out queue whose reader waits at most a real-time limit: a guard so that a
/// test whose expected event never comes fails with what it was waiting for instead of hanging
/// the suite (not a timing assertion).
public final class BoundedQueue<Element: Sendable>: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Element?, Never>
    }

    private struct State {
        var buffer: [Element] = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var finished = false
    }

    private enum Outcome {
        case ready(Element?)
        case waiting(UInt64)
    }

    private let state = Mutex(State())

    /// The default limit of ``next(limit:)``.
    public static var defaultLimit: Duration { .seconds(20) }

    public init() {}

    /// Adds an element (ignored once finished).
    public func append(_ element: Element) {
        let waiter = state.withLock { state -> Waiter? in
            guard !state.finished else { return nil }
            if state.waiters.isEmpty {
                state.buffer.append(element)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.continuation.resume(returning: element)
    }

    /// Whether ``finish()`` was called.
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// No more elements will come: waiting readers and later ones get nil once the buffer is empty.
    public func finish() {
        let waiters = state.withLock { state -> [Waiter] in
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }

    /// The next element; nil when the queue finished, or when `limit` (real time) passed first.
    public func next(limit: Duration = BoundedQueue.defaultLimit) async -> Element? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
            let outcome = state.withLock { state -> Outcome in
                if !state.buffer.isEmpty { return .ready(state.buffer.removeFirst()) }
                if state.finished { return .ready(nil) }
                state.nextWaiterID += 1
                state.waiters.append(Waiter(id: state.nextWaiterID, continuation: continuation))
                return .waiting(state.nextWaiterID)
            }
            switch outcome {
            case .ready(let element):
                continuation.resume(returning: element)
            case .waiting(let id):
                let (seconds, attoseconds) = limit.components
                let nanoseconds = Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                    let expired = state.withLock { state -> Waiter? in
                        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                        return state.waiters.remove(at: index)
                    }
                    expired?.continuation.resume(returning: nil)
                }
            }
        }
    }
}
