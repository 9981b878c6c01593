/// The settings of `imock bench`, parsed from its command line.
public struct BenchOptions: Sendable, Equatable {
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
    public init(connections: Int = BenchOptions.defaultConnections, duration: Duration = BenchOptions.defaultDuration) {
        self.connections = connections
        self.duration = duration
    }

    /// The text of `imock bench --help`.
    public static let usage = """
        USAGE: imock bench [options]

        Measures an in-process imock server over loopback, the server and the clients on two event-loop
        threads: HTTP GET /_imock/health requests/s, WebSocket ping-op round trips/s, and a raw TCP echo
        baseline measured in the same run. Build with `swift build -c release` first.

        OPTIONS:
          --connections <n>    Concurrent connections per figure, 1...10000 (default 16).
          --seconds <s>        Measuring time per figure, fractions allowed (default 2).
          -h, --help           Show this help.
        """

    /// Parses the arguments after `bench`. Throws a `UsageError` naming the bad option.
    public static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        var options = BenchOptions()
        var scanner = ArgumentScanner(arguments)
        while let option = try scanner.nextOption() {
            switch option.name {
            case "--connections": options.connections = try scanner.integer(for: option, in: 1...maxConnections)
            case "--seconds": options.duration = try scanner.seconds(for: option)
            default: throw UsageError("unknown option '\(option.name)'")
            }
        }
        return options
    }
}
