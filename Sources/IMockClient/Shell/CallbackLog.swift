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
    private let sequencer: CallbackSequencer?

    /// Creates an empty log; with a `sequencer` every record gets its next number when logged.
    public init(sequencer: CallbackSequencer? = nil) {
        self.sequencer = sequencer
    }

    /// Every emitted callback so far.
    public var callbacks: [EmittedCallback] { state.withLock { $0.callbacks } }

    /// Every vendor record so far (callbacks without records add none).
    public var records: [CallbackRecord] { callbacks.flatMap(\.records) }

    /// The records as `name(arg: value, …)`.
    public var summaries: [String] { records.map(\.summary) }

    /// Logs `callback`, its records numbered by the sequencer; returns it as logged.
    @discardableResult
    func append(_ callback: EmittedCallback) -> EmittedCallback {
        var callback = callback
        if let sequencer {
            for index in callback.records.indices { callback.records[index].sequence = sequencer.next() }
        }
        let logged = callback
        let ready = state.withLock { state -> [Waiter] in
            state.callbacks.append(logged)
            let callbacks = state.callbacks
            let (met, waiting) = state.waiters.reduce(into: ([Waiter](), [Waiter]())) { split, waiter in
                if waiter.condition(callbacks) { split.0.append(waiter) } else { split.1.append(waiter) }
            }
            state.waiters = waiting
            return met
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
        return logged
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

/// Numbers the callback records of every client that shares it, in the order they were logged:
/// one global order across devices (clients on one event loop log in the order events happened).
public final class CallbackSequencer: Sendable {
    private let counter = Atomic<UInt64>(0)

    /// Creates a sequencer starting at 1.
    public init() {}

    /// The next number.
    public func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }

    /// The last number handed out (0 before the first).
    public var last: UInt64 { counter.load(ordering: .relaxed) }
}
