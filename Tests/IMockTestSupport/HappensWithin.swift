/// Whether `event` returns true within `limit` of real time: false when the time runs out first
/// (the wait is then cancelled), so a test of something that used to hang fails instead of hanging.
public func happens(within limit: Duration, _ event: @escaping @Sendable () async -> Bool) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask { await event() }
        group.addTask {
            try? await Task.sleep(for: limit)
            return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
}
