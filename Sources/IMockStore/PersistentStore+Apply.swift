import IMockCore

extension PersistentStore {
    /// Stores `changes` in one transaction — a group commit: the caller passes everything one
    /// loop turn changed and answers that turn's requests after this returns. When it returns
    /// the changes are committed with the store's ``StoreOptions/durability``; when it throws
    /// none of them is stored (the transaction is rolled back), and the caller's memory is
    /// ahead of the store: see docs/PERSISTENCE.md for what the server does then.
    ///
    /// An empty list does nothing.
    /// - Throws: ``StoreError/invalidChange(_:)`` for a change that cannot be stored as given,
    ///   ``StoreError/sqlite(code:message:operation:)`` naming the change SQLite refused,
    ///   ``StoreError/unavailable(_:)`` when the store is closed or read-only.
    public func apply(_ changes: [StoreChange]) throws(StoreError) {
        guard !changes.isEmpty else { return }
        guard !options.readOnly else { throw .unavailable("\(directory) is open read-only") }
        let writer = StoreWriter(database: database)
        try database.transaction { () throws(StoreError) in
            for (index, change) in changes.enumerated() {
                do throws(StoreError) {
                    try writer.write(change)
                } catch {
                    guard case .sqlite(let code, let message, let operation) = error else { throw error }
                    throw .sqlite(
                        code: code, message: message,
                        operation: "storing change \(index + 1) of \(changes.count) (\(change.label)): \(operation)")
                }
            }
        }
    }
}

extension StoreChange {
    /// The change's case and subject, for error messages: `userUpserted acme#chat/alice`.
    var label: String {
        switch self {
        case .appReplaced(let state): "appReplaced \(state.appKey)"
        case .appSettingsChanged(let app, _): "appSettingsChanged \(app)"
        case .appRemoved(let app): "appRemoved \(app)"
        case .userUpserted(let app, let user): "userUpserted \(app)/\(user.username)"
        case .userRemoved(let app, let username): "userRemoved \(app)/\(username)"
        case .tokenCounterAdvanced(let app, let next): "tokenCounterAdvanced \(app) \(next)"
        case .tokenRevoked(let app, let tokenID): "tokenRevoked \(app) \(tokenID)"
        case .offlineMessagesQueued(let app, let recipient, let messages, let end):
            "offlineMessagesQueued \(app)/\(recipient) \(messages.map(\.messageId)) at \(end.rawValue)"
        case .offlineMessageRemoved(let app, let recipient, let messageID):
            "offlineMessageRemoved \(app)/\(recipient) \(messageID)"
        case .offlineQueueDropped(let app, let recipient): "offlineQueueDropped \(app)/\(recipient)"
        case .offlineQueuesDropped(let app): "offlineQueuesDropped \(app)"
        case .nextMessageSerial(let next): "nextMessageSerial \(next)"
        case .activeUserAdded(let app, let username): "activeUserAdded \(app)/\(username)"
        case .activeUsersReset(let app): "activeUsersReset \(app)"
        case .checkpointSaved(let name, let state): "checkpointSaved \(state.appKey)/\(name)"
        case .checkpointRemoved(let app, let name): "checkpointRemoved \(app)/\(name)"
        case .startStateSaved: "startStateSaved"
        case .clockChanged: "clockChanged"
        }
    }
}
