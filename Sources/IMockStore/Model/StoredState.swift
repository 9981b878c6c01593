import IMockCommon
import IMockCore

/// Everything a store holds, as ``PersistentStore/load()`` reads it in one snapshot: what a
/// restarted server rebuilds its state from. Live sessions are never stored (devices
/// reconnect).
public struct StoredState: Sendable, Equatable {
    /// Every app with its users, complete (uuids, credentials, signing keys, token counters,
    /// revoked ids, password hashes): apps sorted by key, users by username, revoked ids
    /// ascending — exactly what ``SeedDocument/export(_:)`` gives for the stored directory.
    /// Rebuild the directory with ``SeedDocument/makeDirectory(settings:nowMs:)``.
    public var document: SeedDocument
    /// The non-empty offline queues, sorted by app and recipient, each in delivery order.
    public var offlineQueues: [StoredOfflineQueue]
    /// The distinct active users per app, sorted (apps without any are absent).
    public var activeUsers: [AppKey: [String]]
    /// The checkpoints, sorted by app and name.
    public var checkpoints: [StoredCheckpoint]
    /// The state `reset` returns to; nil until ``StoreChange/startStateSaved(_:)`` is applied.
    public var startState: SeedDocument?
    /// The clock; nil until ``StoreChange/clockChanged(_:)`` is applied.
    public var clock: StoredClock?
    /// The id the next message gets; nil until ``StoreChange/nextMessageSerial(_:)`` is applied.
    public var nextMessageSerial: UInt64?

    /// Creates a state (an empty store by default).
    public init(
        document: SeedDocument = SeedDocument(), offlineQueues: [StoredOfflineQueue] = [],
        activeUsers: [AppKey: [String]] = [:], checkpoints: [StoredCheckpoint] = [], startState: SeedDocument? = nil,
        clock: StoredClock? = nil, nextMessageSerial: UInt64? = nil
    ) {
        self.document = document
        self.offlineQueues = offlineQueues
        self.activeUsers = activeUsers
        self.checkpoints = checkpoints
        self.startState = startState
        self.clock = clock
        self.nextMessageSerial = nextMessageSerial
    }
}

/// The offline queue of one user.
public struct StoredOfflineQueue: Sendable, Equatable {
    /// The app.
    public var app: AppKey
    /// The recipient's canonical username.
    public var recipient: String
    /// The messages, first to be delivered first.
    public var messages: [ChatMessage]

    /// Creates a queue.
    public init(app: AppKey, recipient: String, messages: [ChatMessage]) {
        self.app = app
        self.recipient = recipient
        self.messages = messages
    }
}

/// A named checkpoint of one app.
public struct StoredCheckpoint: Sendable, Equatable {
    /// The checkpoint's name (1–64 of `A-Z a-z 0-9 . _ -`, checked by the control API).
    public var name: String
    /// The app's complete state when it was taken; `state.appKey` is the app.
    public var state: SeedApp

    /// Creates a checkpoint.
    public init(name: String, state: SeedApp) {
        self.name = name
        self.state = state
    }
}

/// The server clock's state: flowing with an offset from the wall clock, or frozen at an
/// instant (``Timeline/Position``).
public typealias StoredClock = Timeline.Position
