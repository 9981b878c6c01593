import Dispatch
import Synchronization

/// Every callback the client emitted, in order, readable from any thread; tests and the harness
/// wait on it instead of sleeping.
public final class CallbackLog: Sendable {
    private struct Waiter {
        let id: UInt64
        let condition: @Sendable ([EmittedCallback]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var callbacks: [EmittedCallback] = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Creates an empty log.
    public init() {}

    /// Every emitted callback so far.
    public var callbacks: [EmittedCallback] { state.withLock { $0.callbacks } }

    /// Every vendor record so far (callbacks without records add none).
    public var records: [CallbackRecord] { callbacks.flatMap(\.records) }

    /// The records as `name(arg: value, …)`.
    public var summaries: [String] { records.map(\.summary) }

    func append(_ callback: EmittedCallback) {
        let ready = state.withLock { state -> [Waiter] in
            state.callbacks.append(callback)
            let callbacks = state.callbacks
            let (met, waiting) = state.waiters.reduce(into: ([Waiter](), [Waiter]())) { split, waiter in
                if waiter.condition(callbacks) { split.0.append(waiter) } else { split.1.append(waiter) }
            }
            state.waiters = waiting
            return met
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    /// Waits until `condition` holds for the callbacks so far; false when `limit` (real time, a
    /// guard against a hung test, not a timing assertion) passed first.
    @discardableResult
    public func wait(
        limit: Duration = .seconds(20), until condition: @escaping @Sendable ([EmittedCallback]) -> Bool
    ) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id = state.withLock { state -> UInt64? in
                if condition(state.callbacks) { return nil }
                state.nextWaiterID += 1
                state.waiters.append(Waiter(id: state.nextWaiterID, condition: condition, continuation: continuation))
                return state.nextWaiterID
            }
            guard let id else { return continuation.resume(returning: true) }
            let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in
                let expired = state.withLock { state -> Waiter? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index)
                }
                expired?.continuation.resume(returning: false)
            }
        }
    }

    /// Waits until at least `count` records were logged.
    @discardableResult
    public func wait(forRecordCount count: Int, limit: Duration = .seconds(20)) async -> Bool {
        await wait(limit: limit) { $0.reduce(0) { $0 + $1.records.count } >= count }
    }
}
