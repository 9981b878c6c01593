/// Identifies one WebSocket connection; the shell assigns it (unique for the server's life).
public struct ConnectionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number.
    public let rawValue: UInt64

    /// Wraps a number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Wraps a number.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "conn#\(rawValue)" }
}

/// A token timer in the engine's queue: whose session and what for. The engine keeps every
/// session's token timers in one deadline queue and asks its shell for one wake-up at the
/// earliest (``SessionOutput/wake(atMs:)``), instead of a shell timer per session and kind.
struct TokenTimer: Sendable {
    /// What the timer is for.
    enum Kind: Sendable {
        /// Send `token.willExpire`.
        case tokenWillExpire
        /// Send `token.expired` and close with 4108.
        case tokenExpiry
    }

    /// The session it belongs to.
    let session: SessionID
    /// What it is for.
    let kind: Kind
}
