import IMockCore

extension StoreChange {
    /// The store changes for one loop turn's `durable` changes (``Domain/takeDurableChanges()``),
    /// read against `domain` as it is after them — what the server hands to
    /// ``PersistentStore/apply(_:)`` before it answers the turn's requests.
    ///
    /// A directory change names what changed, so each app, user or counter is written once
    /// with its current state however often the turn changed it; a name that is gone now is
    /// removed. The order keeps every constraint of the schema: whole apps first (created,
    /// seeded, reset, restored), then settings, counters, revocations, users (removals before
    /// upserts, so a uuid or sequence freed in the turn can be taken again), then the queue and
    /// active-user changes in the order they happened (those of apps that are gone now are
    /// skipped: the app's removal takes its rows), the message serial, the checkpoints, and the
    /// removed apps last.
    public static func changes(for durable: [DurableChange], in domain: Domain) -> [StoreChange] {
        var plan = TurnPlan()
        for change in durable { plan.add(change) }
        return plan.changes(in: domain)
    }
}

/// The changes of one turn, grouped for ``StoreChange/changes(for:in:)``.
private struct TurnPlan {
    var wholeApps = OrderedKeys<AppKey>()
    var settings = OrderedKeys<AppKey>()
    var tokenCounters = OrderedKeys<AppKey>()
    var revocations: [(app: AppKey, id: UInt64)] = []
    var users = OrderedKeys<UserName>()
    var engine: [DurableChange] = []
    var messageSerial = false
    var checkpoints = OrderedKeys<CheckpointName>()

    struct UserName: Hashable {
        let app: AppKey
        let username: String
    }

    struct CheckpointName: Hashable {
        let app: AppKey
        let name: String
    }

    mutating func add(_ change: DurableChange) {
        switch change {
        case .app(let key): wholeApps.insert(key)
        case .appSettings(let key): settings.insert(key)
        case .tokenIssued(let key): tokenCounters.insert(key)
        case .tokenRevoked(let key, let id): revocations.append((key, id))
        case .user(let key, let username): users.insert(UserName(app: key, username: username))
        case .messagesQueued, .messageAcked, .queueDropped, .userActive, .activeUsersReset: engine.append(change)
        case .messageIDIssued: messageSerial = true
        case .checkpoint(let key, let name): checkpoints.insert(CheckpointName(app: key, name: name))
        }
    }

    func changes(in domain: Domain) -> [StoreChange] {
        let apps = domain.directory.apps
        let whole = Set(wholeApps.keys)
        /// Apps whose own rows are written below: present, and not written whole.
        func partial(_ key: AppKey) -> App? { whole.contains(key) ? nil : apps[key] }
        var out: [StoreChange] = []
        for key in wholeApps.keys { if let app = apps[key] { out.append(.appReplaced(SeedApp.export(app))) } }
        for key in settings.keys { if let app = partial(key) { out.append(.appSettingsChanged(app: key, settings: app.settings)) } }
        for key in tokenCounters.keys {
            if let app = partial(key) { out.append(.tokenCounterAdvanced(app: key, nextTokenID: app.nextTokenSerial)) }
        }
        for (key, id) in revocations where partial(key) != nil { out.append(.tokenRevoked(app: key, tokenID: id)) }
        let touched = users.keys.filter { partial($0.app) != nil }
        for user in touched where apps[user.app]?.users[user.username] == nil {
            out.append(.userRemoved(app: user.app, username: user.username))
        }
        for user in touched {
            if let stored = apps[user.app]?.users[user.username] { out.append(.userUpserted(app: user.app, stored)) }
        }
        for change in engine { if let stored = Self.engineChange(change, apps: apps) { out.append(stored) } }
        if messageSerial { out.append(.nextMessageSerial(domain.engine.nextMessageID)) }
        for checkpoint in checkpoints.keys {
            if let state = domain.checkpoints[checkpoint.app]?[checkpoint.name] {
                out.append(.checkpointSaved(name: checkpoint.name, state: state))
            } else {
                out.append(.checkpointRemoved(app: checkpoint.app, name: checkpoint.name))
            }
        }
        for key in wholeApps.keys where apps[key] == nil { out.append(.appRemoved(key)) }
        return out
    }

    /// A queue or active-user change of an app that still exists.
    private static func engineChange(_ change: DurableChange, apps: [AppKey: App]) -> StoreChange? {
        switch change {
        case .messagesQueued(let key, let recipient, let messages) where apps[key] != nil:
            .offlineMessagesQueued(app: key, recipient: recipient, messages: messages, at: .back)
        case .messageAcked(let key, let recipient, let messageID) where apps[key] != nil:
            .offlineMessageRemoved(app: key, recipient: recipient, messageID: messageID)
        case .queueDropped(let key, let recipient) where apps[key] != nil:
            .offlineQueueDropped(app: key, recipient: recipient)
        case .userActive(let key, let username) where apps[key] != nil:
            .activeUserAdded(app: key, username: username)
        case .activeUsersReset(let key) where apps[key] != nil:
            .activeUsersReset(app: key)
        default:
            nil
        }
    }
}

/// Distinct keys in the order they were first inserted.
private struct OrderedKeys<Key: Hashable> {
    private(set) var keys: [Key] = []
    private var seen: Set<Key> = []

    mutating func insert(_ key: Key) {
        if seen.insert(key).inserted { keys.append(key) }
    }
}
