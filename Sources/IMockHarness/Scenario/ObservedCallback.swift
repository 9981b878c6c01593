import IMockClient
import IMockCore
import Synchronization

/// A callback the harness observed on a device: what the app's delegate got.
public struct ObservedCallback: Sendable {
    /// The global sequence: one order across every device of the scenario.
    public var sequence: UInt64
    /// The fixture device.
    public var device: String
    /// The vendor callback name.
    public var name: String
    /// The arguments, named and ordered as in the vendor signature.
    public var arguments: [CallbackArgument]
    /// The virtual time of the event that caused it, epoch ms.
    public var timeMs: Int64
    /// The step during which it was observed.
    public var stepIndex: Int
    /// How many server frames its device had received when it fired, for adapters that say
    /// (the ordering barrier, docs/FIXTURES.md § Adapters).
    public var frames: Int64?

    /// Creates an observation.
    public init(
        sequence: UInt64, device: String, name: String, arguments: [CallbackArgument], timeMs: Int64,
        stepIndex: Int, frames: Int64? = nil
    ) {
        self.sequence = sequence
        self.device = device
        self.name = name
        self.arguments = arguments
        self.timeMs = timeMs
        self.stepIndex = stepIndex
        self.frames = frames
    }

    /// `name(arg: value, …)`.
    public var summary: String { CallbackRecord.summary(name: name, arguments: arguments) }

    /// The value of argument `name`.
    public func argument(_ name: String) -> JSONValue? { arguments.first { $0.name == name }?.value }
}

/// Every callback observed in a scenario, kept in global-sequence order, readable from any
/// thread; adapters write into it, the runner reads windows of it.
public final class Observations: Sendable {
    private struct State {
        var callbacks: [ObservedCallback] = []
        var step = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiter = 0
    }

    private let state = Mutex(State())
    /// The sequencer every adapter of the scenario numbers its records with.
    public let sequencer = CallbackSequencer()

    /// Creates an empty store.
    public init() {}

    /// Records a callback; `sequence` 0 takes the next number of the shared sequencer.
    public func record(
        device: String, name: String, arguments: [CallbackArgument], timeMs: Int64, sequence: UInt64 = 0, frames: Int64? = nil
    ) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let observed = ObservedCallback(
                sequence: sequence == 0 ? sequencer.next() : sequence, device: device, name: name, arguments: arguments,
                timeMs: timeMs, stepIndex: state.step, frames: frames)
            let index = state.callbacks.lastIndex { $0.sequence < observed.sequence }.map { $0 + 1 } ?? 0
            state.callbacks.insert(observed, at: index)
            defer { state.waiters = [] }
            return state.waiters.map(\.continuation)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Every callback so far, in sequence order.
    public var all: [ObservedCallback] { state.withLock { $0.callbacks } }

    /// How many callbacks so far.
    public var count: Int { state.withLock { $0.callbacks.count } }

    /// The callbacks with a sequence above `mark`.
    public func after(_ mark: UInt64) -> [ObservedCallback] { state.withLock { $0.callbacks.filter { $0.sequence > mark } } }

    /// The highest sequence so far (0 before the first).
    public var lastSequence: UInt64 { state.withLock { $0.callbacks.last?.sequence ?? 0 } }

    /// Puts the callbacks after `mark` that `key` ranks in the key's order, in the places they
    /// held (ties keep their order; unranked callbacks stay where they are), renumbering them.
    /// `key` must not decrease along one device's callbacks, so each device keeps its order.
    func reorder(after mark: UInt64, by key: (ObservedCallback) -> Int64?) {
        state.withLock { state in
            let places = state.callbacks.indices.filter { state.callbacks[$0].sequence > mark && key(state.callbacks[$0]) != nil }
            let ranked = places.map { state.callbacks[$0] }.enumerated()
                .sorted { (key($0.element)!, $0.offset) < (key($1.element)!, $1.offset) }.map(\.element)
            let numbers = places.map { state.callbacks[$0].sequence }
            for (slot, (place, callback)) in zip(places, ranked).enumerated() {
                state.callbacks[place] = callback
                state.callbacks[place].sequence = numbers[slot]
            }
        }
    }

    /// The step new callbacks are attributed to.
    func setStep(_ index: Int) { state.withLock { $0.step = index } }

    /// Returns when the next callback arrives, or after `limit` (real time) — a bound for
    /// real-time adapters, never a timing assertion.
    func waitForNext(limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await withCheckedContinuation { continuation in
                    state.withLock { state in
                        state.nextWaiter += 1
                        state.waiters.append((state.nextWaiter, continuation))
                    }
                }
            }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
            // Release the waiter if the bound won.
            let left = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                defer { state.waiters = [] }
                return state.waiters.map(\.continuation)
            }
            for waiter in left { waiter.resume() }
            await group.waitForAll()
        }
    }
}

