/// The figures of one `imock bench` run.
public struct TransportReport: Sendable, Equatable {
    /// Concurrent connections per figure.
    public var connections: Int
    /// Measuring time per figure.
    public var duration: Duration
    /// Raw TCP echo round trips per second through IMockNet's `Connection` (the baseline).
    public var echoRoundTripsPerSecond: Double
    /// `GET /_imock/health` requests per second over keep-alive connections.
    public var healthRequestsPerSecond: Double
    /// WebSocket `ping` op → `pong` round trips per second on `/ws`.
    public var webSocketRoundTripsPerSecond: Double

    /// Creates a report from measured figures.
    public init(
        connections: Int, duration: Duration, echoRoundTripsPerSecond: Double, healthRequestsPerSecond: Double,
        webSocketRoundTripsPerSecond: Double
    ) {
        self.connections = connections
        self.duration = duration
        self.echoRoundTripsPerSecond = echoRoundTripsPerSecond
        self.healthRequestsPerSecond = healthRequestsPerSecond
        self.webSocketRoundTripsPerSecond = webSocketRoundTripsPerSecond
    }

    /// HTTP requests/s divided by the baseline's round trips/s.
    public var healthRatio: Double { ratio(healthRequestsPerSecond) }
    /// WebSocket round trips/s divided by the baseline's round trips/s.
    public var webSocketRatio: Double { ratio(webSocketRoundTripsPerSecond) }

    private func ratio(_ figure: Double) -> Double {
        echoRoundTripsPerSecond > 0 ? figure / echoRoundTripsPerSecond : 0
    }
}
