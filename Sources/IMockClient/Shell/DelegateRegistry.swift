import Dispatch
import Synchronization

/// The registered delegates and their queues. Delivery checks the registration again on the
/// delegate's queue, so a delegate removed before its callback runs gets nothing.
final class DelegateRegistry: Sendable {
    private struct Entry: Sendable {
        let id: ObjectIdentifier
        let delegate: any IMClientDelegate
        let queue: DispatchQueue
    }

    private let entries = Mutex<[Entry]>([])
    private let defaultQueue: DispatchQueue

    init(defaultQueue: DispatchQueue) {
        self.defaultQueue = defaultQueue
    }

    /// Adds `delegate` (once; adding it again changes its queue).
    func add(_ delegate: any IMClientDelegate, queue: DispatchQueue?) {
        let entry = Entry(id: ObjectIdentifier(delegate), delegate: delegate, queue: queue ?? defaultQueue)
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.id == entry.id }) {
                entries[index] = entry
            } else {
                entries.append(entry)
            }
        }
    }

    /// Removes `delegate`; callbacks not yet delivered to it are dropped.
    func remove(_ delegate: any IMClientDelegate) {
        let id = ObjectIdentifier(delegate)
        entries.withLock { $0.removeAll { $0.id == id } }
    }

    /// The number of registered delegates.
    var count: Int { entries.withLock { $0.count } }

    private func isRegistered(_ entry: Entry) -> Bool {
        entries.withLock { $0.contains { $0.id == entry.id && $0.delegate === entry.delegate } }
    }

    /// Sends `callback` to every delegate registered now, each on its queue.
    func deliver(_ callback: EmittedCallback) {
        let targets = entries.withLock { $0 }
        for entry in targets {
            entry.queue.async { [self] in
                guard isRegistered(entry) else { return }
                entry.delegate.imClient(didEmit: callback)
            }
        }
    }
}
