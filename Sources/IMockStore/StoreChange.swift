import IMockCore

/// One change to the stored state, as the server emits it while it handles a command. The
/// server collects the changes of one loop turn and hands them to ``PersistentStore/apply(_:)``
/// in one call (one transaction); requests are answered after that call returns.
///
/// Values carry the *complete* state they describe, taken from the domain after the change
/// (an exported user, the new token counter), never a delta that depends on what the store
/// held before: applying a change twice gives the same result as applying it once, except
/// for ``offlineMessagesQueued(app:recipient:messages:at:)``, which adds.
///
/// Removals of something the store does not hold are no-ops; updates of an app the store does
/// not hold throw ``StoreError/invalidChange(_:)`` (the store missed an earlier change).
public enum StoreChange: Sendable, Equatable {
    // MARK: Apps

    /// The app's whole stored state — settings, credentials, signing key, token counter,
    /// revoked ids and users — becomes `state` (an app created, seeded, reset or restored).
    /// The state must be complete, as ``SeedApp/export(_:)`` makes it: uuid, credentials,
    /// signing key, `nextTokenId`, and every user with uuid, times, sequence, minimum token id
    /// and a hashed password or none. Offline queues, active users and checkpoints are left
    /// alone (the server emits their own changes).
    case appReplaced(SeedApp)
    /// The app's settings (the control API's app switches).
    case appSettingsChanged(app: AppKey, settings: AppSettings)
    /// The app and everything stored for it — users, revoked ids, offline queues, active users
    /// — are gone; its checkpoints are kept.
    case appRemoved(AppKey)

    // MARK: Users

    /// The user is added or replaced (registration, password change, activation, nickname,
    /// "revoke all tokens"); a complete ``SeedUser`` as ``SeedUser/init(exporting:)`` makes it.
    case userUpserted(app: AppKey, user: SeedUser)
    /// The user is deleted. Their offline queue is not touched (the engine drops it, and the
    /// server emits ``offlineQueueDropped(app:recipient:)``).
    case userRemoved(app: AppKey, username: String)

    // MARK: Tokens

    /// The app's next token id (every issued token advances it).
    case tokenCounterAdvanced(app: AppKey, nextTokenID: UInt64)
    /// One token id is revoked.
    case tokenRevoked(app: AppKey, tokenID: UInt64)

    // MARK: Offline queues

    /// Messages join the offline queue of `recipient`, in the order given, at its back (a
    /// message sent to an offline user) or at its front (messages a client did not take, put
    /// back before everything queued). A message id already queued for the recipient throws.
    case offlineMessagesQueued(app: AppKey, recipient: String, messages: [ChatMessage], at: OfflineQueueEnd)
    /// One queued message is gone (acked).
    case offlineMessageRemoved(app: AppKey, recipient: String, messageID: String)
    /// The recipient's whole queue is gone (the user was deleted or their state replaced).
    case offlineQueueDropped(app: AppKey, recipient: String)
    /// Every queue of the app is gone (the app's state was replaced).
    case offlineQueuesDropped(app: AppKey)
    /// The id the next message gets (the engine's message serial), so that ids stay unique
    /// across a restart.
    case nextMessageSerial(UInt64)

    // MARK: Active users

    /// A user counts as active in the app (their first login since the last reset).
    case activeUserAdded(app: AppKey, username: String)
    /// The app's active-user count starts again at zero.
    case activeUsersReset(app: AppKey)

    // MARK: Control API state

    /// A checkpoint named `name` of app `state.appKey` is taken (replacing one of that name).
    case checkpointSaved(name: String, state: SeedApp)
    /// The checkpoint is gone.
    case checkpointRemoved(app: AppKey, name: String)
    /// The state `reset` returns to (the `--seed`/`--app` of the first start).
    case startStateSaved(SeedDocument)
    /// The clock's state after a control-API move (or at start-up).
    case clockChanged(StoredClock)
}

extension StoreChange {
    /// `message` queued at the back of its recipient's (`message.to`) queue.
    public static func offlineMessageQueued(app: AppKey, _ message: ChatMessage) -> StoreChange {
        .offlineMessagesQueued(app: app, recipient: message.to, messages: [message], at: .back)
    }

    /// `user` of `app` added or replaced, exported from the domain.
    public static func userUpserted(app: AppKey, _ user: User) -> StoreChange {
        .userUpserted(app: app, user: SeedUser(exporting: user))
    }
}

/// Which end of an offline queue messages join.
public enum OfflineQueueEnd: String, Sendable, Equatable {
    /// After every queued message.
    case back
    /// Before every queued message.
    case front
}
