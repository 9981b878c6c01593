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
