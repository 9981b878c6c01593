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

    /// Creates an observation.
    public init(
        sequence: UInt64, device: String, name: String, arguments: [CallbackArgument], timeMs: Int64,
        stepIndex: Int
    ) {
        self.sequence = sequence
        self.device = device
        self.name = name
        self.arguments = arguments
        self.timeMs = timeMs
        self.stepIndex = stepIndex
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
    public func record(device: String, name: String, arguments: [CallbackArgument], timeMs: Int64, sequence: UInt64 = 0) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let observed = ObservedCallback(
                sequence: sequence == 0 ? sequencer.next() : sequence, device: device, name: name, arguments: arguments,
                timeMs: timeMs, stepIndex: state.step)
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

