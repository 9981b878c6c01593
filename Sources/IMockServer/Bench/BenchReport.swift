import IMockNet

/// The figures of one `imock bench` run.
public struct BenchReport: Sendable, Equatable {
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

    /// The report as printed: a header, one line per figure with its unit, then the ratios.
    public var lines: [String] {
        [
            "imock bench: \(connections) connection\(connections == 1 ? "" : "s") per figure, "
                + "\(Self.seconds(duration)) s each, server and clients on two event-loop threads (\(Self.buildKind) build)",
            "TCP echo baseline (IMockNet Connection, \(EchoClient.messageSize)-byte messages): "
                + "\(Self.grouped(echoRoundTripsPerSecond)) round trips/s",
            "HTTP GET /_imock/health (keep-alive): \(Self.grouped(healthRequestsPerSecond)) requests/s",
            "WebSocket ping op on /ws: \(Self.grouped(webSocketRoundTripsPerSecond)) round trips/s",
            "HTTP / baseline ratio: \(Self.twoDecimals(healthRatio))",
            "WebSocket / baseline ratio: \(Self.twoDecimals(webSocketRatio))",
        ]
    }

    private func ratio(_ figure: Double) -> Double {
        echoRoundTripsPerSecond > 0 ? figure / echoRoundTripsPerSecond : 0
    }

    #if DEBUG
    static let buildKind = "debug"
    #else
    static let buildKind = "release"
    #endif

    /// `12345.6` → `12,346`.
    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    /// `0.456` → `0.46`.
    static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `.seconds(2)` → `2`, `.milliseconds(200)` → `0.2`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        if milliseconds % 1000 == 0 { return String(milliseconds / 1000) }
        return String(Double(milliseconds) / 1000)
    }
}
