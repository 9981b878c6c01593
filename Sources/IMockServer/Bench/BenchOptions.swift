import IMockCommon

import IMockCommon
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

    /// The declarations of `imock bench`: they parse the arguments and write `--help`.
    public static let spec = CommandLineSpec<BenchOptions>(
        name: "bench",
        summary: "Measures an in-process imock server over loopback, the server and the clients on two event-loop "
            + "threads: HTTP GET /_imock/health requests/s, WebSocket ping-op round trips/s, and a raw TCP echo "
            + "baseline measured in the same run. Build with `swift build -c release` first.",
        options: [
            CommandLineOption("--connections", "<n>", help: "Concurrent connections per figure, 1...10000.", default: "16") {
                options, text throws(UsageError) in
                options.connections = try OptionValue.integer(text, option: "--connections", in: 1...maxConnections)
            },
            CommandLineOption("--seconds", "<s>", help: "Measuring time per figure, fractions allowed.", default: "2") {
                options, text throws(UsageError) in
                options.duration = try OptionValue.seconds(text, option: "--seconds")
            },
        ])

    /// `imock bench --help`.
    public static var usage: String { spec.help }

    /// Parses the arguments after `bench`. Throws a `UsageError` naming the bad option.
    public static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        try spec.parse(arguments, defaults: BenchOptions()).settings
    }
}
