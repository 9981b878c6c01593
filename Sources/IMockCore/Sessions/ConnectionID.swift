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

/// A timer the engine asked the shell to run (``SessionOutput/schedule(_:atMs:)``); the shell
/// hands it back through ``SessionEngine/timerFired(_:nowMs:directory:)`` when due.
public struct TimerToken: Hashable, Sendable, CustomStringConvertible {
    /// What the timer is for.
    public enum Kind: String, Hashable, Sendable {
        /// Send `token.willExpire`.
        case tokenWillExpire
        /// Send `token.expired` and close with 4108.
        case tokenExpiry
    }

    /// Unique per engine, growing in scheduling order.
    public let serial: UInt64
    /// The connection whose session the timer belongs to.
    public let connection: ConnectionID
    /// What the timer is for.
    public let kind: Kind

    /// Creates a token (the engine does; tests may too).
    public init(serial: UInt64, connection: ConnectionID, kind: Kind) {
        self.serial = serial
        self.connection = connection
        self.kind = kind
    }

    public var description: String { "\(kind.rawValue)#\(serial)@\(connection)" }
}
