import Synchronization

/// Work handed to the client's loop that must end even when the loop never runs it: each entry
/// carries an abort, and ``close()`` runs the aborts of every entry the loop has not claimed.
/// So a call racing `shutdown()` either runs on the loop or fails at once, never both and never
/// neither; once closed, nothing enters. Thread-safe.
final class ShutdownGate: Sendable {
    /// A registered piece of work.
    struct Ticket: Hashable, Sendable {
        fileprivate let number: UInt64
    }

    private struct State {
        var closed = false
        var issued: UInt64 = 0
        var aborts: [UInt64: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Registers work whose `abort` runs if the gate closes before the work is claimed; nil
    /// when the gate is already closed (the caller fails the work itself).
    func enter(abort: @escaping @Sendable () -> Void) -> Ticket? {
        state.withLock { state in
            guard !state.closed else { return nil }
            state.issued += 1
            state.aborts[state.issued] = abort
            return Ticket(number: state.issued)
        }
    }

    /// Takes `ticket` for the loop side: true once, unless ``close()`` already aborted it.
    func claim(_ ticket: Ticket) -> Bool {
        state.withLock { $0.aborts.removeValue(forKey: ticket.number) != nil }
    }

    /// Closes the gate and runs the aborts of the unclaimed work, oldest first (outside the lock).
    func close() {
        let aborts = state.withLock { state -> [@Sendable () -> Void] in
            state.closed = true
            let pending = state.aborts.sorted { $0.key < $1.key }.map(\.value)
            state.aborts = [:]
            return pending
        }
        for abort in aborts { abort() }
    }

    /// Whether ``close()`` ran.
    var isClosed: Bool { state.withLock { $0.closed } }
}
