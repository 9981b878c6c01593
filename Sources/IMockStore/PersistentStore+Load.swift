import IMockCore

extension PersistentStore {
    /// Everything committed, read in one snapshot (one read transaction). The apps are
    /// checked against the seed rules, so what loads also builds a directory.
    /// - Throws: ``StoreError/corruptRecord(_:)`` for a row that cannot be turned back into
    ///   domain state, ``StoreError/integrityCheckFailed(path:problems:)`` when SQLite finds
    ///   the file damaged on the way, ``StoreError/unavailable(_:)`` when the store is closed.
    public func load() throws(StoreError) -> StoredState {
        do {
            return try readAll()
        } catch {
            throw PersistentStore.describeFileFailure(error, path: database.path)
        }
    }

    private func readAll() throws(StoreError) -> StoredState {
        let reader = StoreReader(database: database)
        return try database.transaction(.deferred) { () throws(StoreError) in
            var state = StoredState()
            let apps = try reader.apps()
            do {
                state.document = try SeedDocument(apps: apps).validated()
            } catch {
                throw .corruptRecord("the stored apps break the seed rules (apps sorted by key): \(error)")
            }
            state.offlineQueues = try reader.offlineQueues()
            state.activeUsers = try reader.activeUsers()
            state.checkpoints = try reader.checkpoints()
            try reader.serverState(into: &state)
            return state
        }
    }
}
