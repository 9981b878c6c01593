import CSQLite
import IMockCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The durable state of `imock serve --data DIR`: one SQLite database in WAL mode,
/// `DIR/imock.sqlite`, holding apps and their settings, users and password hashes, token
/// counters and revocations, offline queues, active users, checkpoints, the start state and
/// the clock (docs/PERSISTENCE.md).
///
/// The server keeps its state in memory as before and tells the store what changed:
/// everything one loop turn changed goes to ``apply(_:)`` in one call — one transaction, a
/// group commit — and the requests of that turn are answered after it returns. At start-up
/// ``load()`` gives back everything committed.
///
/// **Threads.** One connection, used from one thread: the server's event-loop thread. The
/// class is not `Sendable`; nothing in it locks. With ``StoreOptions/Checkpointing/background``
/// (the default) a second connection on a thread of the store's own runs the WAL
/// checkpoints, so no commit on the loop pays for one.
///
/// **Processes.** A writable store holds an exclusive `flock` on `DIR` itself and on
/// `DIR/imock.lock`, so a second server on the same directory is refused
/// (``StoreError/inUse(path:)``), even when the lock file was deleted; the kernel drops the
/// locks when the process dies. A store opened with ``StoreOptions/readOnly`` takes
/// no lock and sees every committed transaction (WAL readers never block the writer).
///
/// ```swift
/// let store = try PersistentStore.open(directory: "/var/lib/imock")
/// let state = try store.load()
/// var directory = try state.document.makeDirectory(settings: DirectorySettings(), nowMs: clock.nowMs)
/// let user = try directory.registerUser(NewUser(username: "alice", password: "pw"), in: key, nowMs: clock.nowMs)
/// try store.apply([.userUpserted(app: key, user)])   // committed: now answer the request
/// ```
public final class PersistentStore {
    /// The data directory.
    public let directory: String
    /// The options it was opened with.
    public let options: StoreOptions
    /// The schema version the file had when it was opened (0 = a new store); it is now at
    /// ``latestSchemaVersion``.
    public let openedSchemaVersion: Int
    /// The schema version this build writes.
    public static var latestSchemaVersion: Int { Schema.latestVersion }

    let database: SQLiteDatabase
    private let lock: DirectoryLock?
    /// Runs the WAL checkpoints with ``StoreOptions/Checkpointing/background``.
    let checkpointer: WALCheckpointer?

    /// The largest WAL file kept on disk after the WAL starts over (SQLite truncates it to
    /// this): 16 MiB.
    static let walSizeLimit = 16 << 20

    /// The database file of the store in `directory`.
    public static func databasePath(in directory: String) -> String {
        directory + "/" + DataDirectory.databaseName
    }

    /// Opens the store in `directory` — creating the directory (mode 0700) and the database
    /// when missing (made beside it and renamed into place with its schema, so it never exists
    /// empty), migrating an older schema — and configures the connection (WAL, `synchronous`
    /// per ``StoreOptions/durability``, `foreign_keys`, `busy_timeout`).
    ///
    /// - Throws: ``StoreError/directoryUnavailable(path:reason:)`` when the directory cannot
    ///   be created or used, ``StoreError/inUse(path:)`` when another writer holds it,
    ///   ``StoreError/notAStore(path:reason:)`` for a file that is not an imock database (an
    ///   empty file included),
    ///   ``StoreError/newerSchema(path:found:supported:)`` for one written by a newer build,
    ///   ``StoreError/integrityCheckFailed(path:problems:)`` for a damaged one (a writable
    ///   store runs `PRAGMA quick_check` before anything else; a read-only one does not).
    public static func open(directory: String, options: StoreOptions = StoreOptions()) throws(StoreError) -> PersistentStore {
        try PersistentStore(directory: directory, options: options, schemaVersion: Schema.latestVersion)
    }

    /// Opens the store and migrates it only up to `schemaVersion` (tests build old stores).
    init(directory: String, options: StoreOptions, schemaVersion: Int) throws(StoreError) {
        self.directory = directory
        self.options = options
        let path = PersistentStore.databasePath(in: directory)
        var created = false
        if options.readOnly {
            try DatabaseFile.requireExisting(path)
            lock = nil
        } else {
            try DataDirectory.create(directory)
            let lock = try DirectoryLock(directory: directory)
            do throws(StoreError) {
                created = try DatabaseFile.prepare(path, schemaVersion: schemaVersion)
            } catch {
                lock.release()
                throw error
            }
            self.lock = lock
        }
        database = try SQLiteDatabase(path: path, readOnly: options.readOnly)
        do {
            try PersistentStore.configure(database, options)
            // A writer checks before it writes anything; a reader may be salvaging what is left.
            if !options.readOnly { try PersistentStore.requireIntact(database, quick: true) }
            let found = try SchemaMigrator.migrate(database, upTo: schemaVersion)
            openedSchemaVersion = created ? 0 : found
            checkpointer = try PersistentStore.startCheckpointer(for: database, options)
        } catch {
            database.close()
            lock?.release()
            throw PersistentStore.describeFileFailure(error, path: path)
        }
    }

    deinit { close() }

    /// Closes the database and gives the directory's lock up. Idempotent; later calls throw
    /// ``StoreError/unavailable(_:)``.
    public func close() {
        checkpointer?.stop()
        database.close()
        lock?.release()
    }

    /// Why the last background checkpoint failed, while the next has not succeeded (the WAL
    /// then grows, nothing is lost); nil when checkpoints work or run inline.
    public var checkpointFailure: StoreError? { checkpointer?.lastFailure }

    /// Whether ``close()`` has not been called.
    public var isOpen: Bool { database.isOpen }

    // MARK: Opening

    private static func configure(_ database: SQLiteDatabase, _ options: StoreOptions) throws(StoreError) {
        try database.execute("PRAGMA busy_timeout = \(max(0, options.busyTimeoutMs))")
        if !options.readOnly {
            let mode = try database.scalarText("PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw .unavailable("\(database.path) cannot use WAL mode (journal_mode is \(mode ?? "unknown"))")
            }
        }
        try database.execute("PRAGMA synchronous = \(options.durability.synchronousPragma)")
        try database.execute("PRAGMA foreign_keys = ON")
        try database.execute("PRAGMA journal_size_limit = \(walSizeLimit)")
    }

    private static func startCheckpointer(
        for database: SQLiteDatabase, _ options: StoreOptions
    ) throws(StoreError) -> WALCheckpointer? {
        guard !options.readOnly, options.checkpointing == .background else { return nil }
        let checkpointer = try WALCheckpointer(path: database.path, options: options)
        do {
            try database.onWALCommit(atLeast: WALCheckpointer.wakePages) { checkpointer.wake() }
        } catch {
            checkpointer.stop()
            throw error
        }
        return checkpointer
    }
}
