import Synchronization

/// Goodbye messages that depend on nothing of the connection — the imock JSON `kicked` frame of
/// a code and reason, OpenIM's kick push in one codec — encoded once and shared by every
/// session that is told the same: an app-wide kick of 10,000 sessions encodes one frame, not
/// 10,000 (the message's bytes are shared, not copied). Safe from any thread; servers of one
/// process share it.
public final class SharedGoodbyes: Sendable {
    /// What a goodbye depends on: its dialect, a variant of the dialect's (OpenIM's codec), the
    /// code and the reason.
    public struct Key: Hashable, Sendable {
        var dialect: String
        var variant: Int
        var code: Int
        var reason: String

        /// The key of a goodbye.
        public init(dialect: String, variant: Int = 0, code: Int, reason: String) {
            self.dialect = dialect
            self.variant = variant
            self.code = code
            self.reason = reason
        }
    }

    /// The process's cache.
    public static let shared = SharedGoodbyes()

    /// Distinct goodbyes kept; past it the cache starts again (reasons are few in practice).
    static let capacity = 256

    private let entries = Mutex<[Key: WireMessage]>([:])

    /// The goodbye of `key`, made by `make` the first time.
    public func message(_ key: Key, make: () -> WireMessage) -> WireMessage {
        if let known = entries.withLock({ $0[key] }) { return known }
        let made = make()
        entries.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[key] = made
        }
        return made
    }
}
