/// The settings of the `transport` scenario of `imock bench` (health requests, ping ops and a
/// raw TCP echo baseline against an in-process server).
public struct TransportOptions: Sendable, Equatable {
    /// Concurrent connections per figure when `--connections` is not given.
    public static let defaultConnections = 16
    /// Measuring time per figure when `--seconds` is not given.
    public static let defaultDuration: Duration = .seconds(2)
    /// The most connections `--connections` accepts.
    public static let maxConnections = 10_000

    /// Concurrent connections per figure; each runs one exchange at a time.
    public var connections: Int
    /// How long each figure is measured.
    public var duration: Duration

    /// Options with the given values (the defaults of the command line otherwise).
    public init(
        connections: Int = TransportOptions.defaultConnections, duration: Duration = TransportOptions.defaultDuration
    ) {
        self.connections = connections
        self.duration = duration
    }
}
