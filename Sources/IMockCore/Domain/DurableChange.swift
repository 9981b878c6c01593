/// A change to the durable part of the domain — what `imock serve --data` keeps across a
/// restart (docs/PERSISTENCE.md): apps and their settings, users, token counters and
/// revocations, offline queues, message ids, active users, checkpoints.
///
/// The ``Directory``, the ``SessionEngine`` and the ``Domain`` record these while recording is
/// on (``DurableChangeLog``); the server takes them once per loop turn and stores them in one
/// commit before it answers the turn's requests. Changes to the directory name *what* changed
/// (an app, a user, a counter): the store reads its current state when it writes, so several
/// changes of one thing in a turn cost one write. Changes to the queues carry the messages, in
/// order, since a queue is written message by message.
public enum DurableChange: Sendable, Equatable {
    /// App `key` changed as a whole — created, replaced (a seed, a reset, a restored
    /// checkpoint) or removed (absent now): its settings, credentials, counter, revocations and
    /// users are read afresh.
    case app(AppKey)
    /// The app's settings changed.
    case appSettings(AppKey)
    /// The app issued a token: its next token id moved.
    case tokenIssued(AppKey)
    /// One token id of the app was revoked.
    case tokenRevoked(AppKey, id: UInt64)
    /// The user was registered, deleted (absent now), banned or unbanned, got a new password,
    /// had every token revoked, or was created by an `inherit` grant.
    case user(AppKey, username: String)
    /// Messages joined the back of the recipient's queue, in order: every accepted message,
    /// live or offline, until a device confirms it (a close never moves one).
    case messagesQueued(AppKey, recipient: String, messages: [ChatMessage])
    /// A queued message was confirmed (acked) and is gone.
    case messageAcked(AppKey, recipient: String, messageID: String)
    /// The recipient's whole offline queue is gone (user deleted, app state replaced).
    case queueDropped(AppKey, recipient: String)
    /// The engine gave out a message id: the next id moved.
    case messageIDIssued
    /// A user logged in for the first time since the app's active users were last reset.
    case userActive(AppKey, username: String)
    /// The app's active users were forgotten.
    case activeUsersReset(AppKey)
    /// Checkpoint `name` of the app was saved (or replaced); removed when absent now.
    case checkpoint(AppKey, name: String)
}

/// The ``DurableChange``s recorded since the last ``take()``, in the order they happened.
///
/// Off by default: an in-memory server records nothing and pays nothing. Not part of the
/// state of the value that holds it (two directories with different logs are equal).
public struct DurableChangeLog: Sendable {
    /// Whether changes are kept.
    public private(set) var isRecording = false
    /// The changes since the last ``take()``.
    public private(set) var changes: [DurableChange] = []

    /// An empty log, recording or not.
    public init(recording: Bool = false) {
        isRecording = recording
    }

    /// Starts keeping changes.
    public mutating func startRecording() { isRecording = true }

    /// The changes since the last call, oldest first; the log is empty afterwards.
    public mutating func take() -> [DurableChange] {
        defer { changes.removeAll(keepingCapacity: true) }
        return changes
    }

    /// Keeps `change` while recording (the autoclosure builds nothing otherwise).
    mutating func record(_ change: @autoclosure () -> DurableChange) {
        if isRecording { changes.append(change()) }
    }
}
