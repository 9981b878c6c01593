/// How a ``PersistentStore`` is opened.
public struct StoreOptions: Sendable, Equatable {
    /// What a committed ``PersistentStore/apply(_:)`` survives.
    public enum Durability: String, Sendable, Equatable, CaseIterable {
        /// `PRAGMA synchronous = NORMAL` in WAL mode: a commit is written into the WAL file
        /// (handed to the kernel) before `apply` returns, and fsynced at checkpoints. Survives
        /// the process ending in any way — SIGKILL, a crash, `exit` — because the kernel
        /// still holds and writes the data; the last commits before a power loss or a kernel
        /// crash can be lost (the database stays consistent). The default.
        case process
        /// `PRAGMA synchronous = FULL`: every commit also fsyncs the WAL before `apply`
        /// returns, so it survives a power loss too, at the price of one fsync per batch.
        case power

        /// The value of `PRAGMA synchronous`.
        var synchronousPragma: String {
            switch self {
            case .process: "NORMAL"
            case .power: "FULL"
            }
        }
    }

    /// Where WAL checkpoints run.
    public enum Checkpointing: String, Sendable, Equatable, CaseIterable {
        /// On a thread of the store's own with a second connection, woken when the WAL
        /// passes 1000 pages and every second: commits on the loop thread never pay for a
        /// checkpoint. The default.
        case background
        /// SQLite's automatic checkpoint, inside the commit that passes 1000 WAL pages: no
        /// extra thread, but that commit takes milliseconds longer (an fsync at least).
        case inline
    }

    /// What a commit survives; ``Durability/process`` by default.
    public var durability: Durability
    /// How long a statement waits for a lock another connection holds before failing with
    /// `SQLITE_BUSY`, in milliseconds (`PRAGMA busy_timeout`). The server is the only writer,
    /// so this only matters while an outside reader checkpoints or inspects the file.
    public var busyTimeoutMs: Int
    /// Opens the database read-only and takes no lock: for inspecting a store a server is
    /// using (WAL readers see every committed transaction). ``PersistentStore/apply(_:)``
    /// then throws.
    public var readOnly: Bool
    /// Where WAL checkpoints run; ``Checkpointing/background`` by default (a read-only store
    /// runs none).
    public var checkpointing: Checkpointing

    /// Creates options; the defaults are process durability, a 2 s busy timeout, read-write,
    /// background checkpoints.
    public init(
        durability: Durability = .process, busyTimeoutMs: Int = 2000, readOnly: Bool = false,
        checkpointing: Checkpointing = .background
    ) {
        self.durability = durability
        self.busyTimeoutMs = busyTimeoutMs
        self.readOnly = readOnly
        self.checkpointing = checkpointing
    }
}
