import IMockCommon
import IMockCore
import IMockStore

/// The store of `imock serve --data DIR` as the server uses it (docs/PERSISTENCE.md): opened
/// and read before the server starts, handed to ``MockServer``, then written once per loop
/// turn — a group commit of everything the turn changed, before the turn's output leaves.
///
/// Loop-confined once the server runs (the store's connection belongs to the loop thread).
public final class ServerStore {
    /// What a store held when it was opened, rebuilt into domain values.
    public struct Restored {
        /// Everything the store held.
        public let state: StoredState
        /// The apps, users and tokens, built from `state.document`.
        public let directory: Directory
    }

    /// The open store.
    public let store: PersistentStore
    /// What the store held when it was opened; nil for a new store (the server writes its
    /// first state at start-up).
    public let restored: Restored?
    /// The clock position of the last commit.
    private var committedClock: StoredClock?

    /// Opens (creating or migrating) the store in `directory` and reads it. A store a server
    /// already started on is rebuilt into a directory with `settings` (the random source of
    /// new ids and salts, the iteration count of new password hashes).
    /// - Throws: ``StoreError`` when the directory cannot be used or locked, the file is not an
    ///   imock store, its schema is newer than this build, or a stored row is damaged.
    public static func open(
        directory: String, settings: DirectorySettings, options: StoreOptions = StoreOptions()
    ) throws(StoreError) -> ServerStore {
        let store = try PersistentStore.open(directory: directory, options: options)
        do throws(StoreError) {
            let state = try store.load()
            guard state.holdsServerState else { return ServerStore(store: store, restored: nil) }
            let directory: Directory
            do {
                directory = try state.document.makeDirectory(settings: settings, nowMs: 0)
            } catch {
                throw StoreError.corruptRecord("the stored apps cannot be loaded: \(error)")
            }
            return ServerStore(store: store, restored: Restored(state: state, directory: directory))
        } catch {
            store.close()
            throw error
        }
    }

    private init(store: PersistentStore, restored: Restored?) {
        self.store = store
        self.restored = restored
        committedClock = restored?.state.clock
    }

    /// The data directory.
    public var directory: String { store.directory }

    /// The domain of a restarted server: the stored directory, checkpoints and start state, and
    /// `engine` with the stored queues, active users and message ids; nil for a new store.
    func restoredDomain(engine: SessionEngine, faults: FaultBook) -> Domain? {
        guard let restored else { return nil }
        var engine = engine
        restored.state.restore(into: &engine)
        return Domain(
            directory: restored.directory, engine: engine, faults: faults, startSeed: restored.state.startState,
            checkpoints: restored.state.checkpointsByApp)
    }

    /// The clock of a restarted server, as it was at its last commit.
    var restoredClock: Timeline? {
        restored?.state.clock.map { Timeline(position: $0) }
    }

    /// Writes the first state of a new store in one commit: every app, the start state, the
    /// clock, the message ids. A restored store without a start state (migrated from schema
    /// version 1) gets its current state as the start state, the clock and the message ids.
    func writeFirstState(of domain: Domain, clock: Timeline) throws(StoreError) {
        let position = clock.position
        if let restored {
            guard restored.state.startState == nil else { return }
            try store.apply(StoreChange.serverState(of: domain, clock: position))
        } else {
            try store.apply(StoreChange.firstStart(of: domain, clock: position))
        }
        committedClock = position
    }

    /// Commits what `domain` recorded since the last commit, and the clock when it moved: one
    /// transaction. Nothing to write writes nothing.
    func commit(_ domain: inout Domain, clock: Timeline) throws(StoreError) {
        let durable = domain.takeDurableChanges()
        let position = clock.position
        var changes = durable.isEmpty ? [] : StoreChange.changes(for: durable, in: domain)
        if position != committedClock { changes.append(.clockChanged(position)) }
        guard !changes.isEmpty else { return }
        try store.apply(changes)
        committedClock = position
    }

    /// Logs the directory and what the store held at start-up (apps, users, queued messages,
    /// checkpoints), or that it is new.
    func logOpened(to logger: Logger) {
        guard let state = restored?.state else {
            logger.info("data", ["directory": directory, "state": "new"])
            return
        }
        logger.info(
            "data",
            [
                "directory": directory, "state": "loaded", "apps": String(state.document.apps.count),
                "users": String(state.document.apps.reduce(0) { $0 + $1.users.count }),
                "queuedMessages": String(state.offlineQueues.reduce(0) { $0 + $1.messages.count }),
                "checkpoints": String(state.checkpoints.count),
            ])
    }
}
