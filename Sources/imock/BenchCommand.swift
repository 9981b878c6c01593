import IMockCommon
import IMockServer

/// `imock bench`: parses its options, runs the benchmark and prints one line per figure.
enum BenchCommand {
    /// Runs `imock bench` with the arguments after `bench`; returns the exit status.
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        CommandStart.run(
            "bench", arguments: arguments, help: BenchOptions.usage,
            parse: { () throws(UsageError) in try BenchOptions.parse(arguments) }, bench)
    }

    /// Runs the benchmark `options` describe; the exit status.
    static func bench(_ options: BenchOptions) -> Int32 {
        do {
            let report = try Benchmark.runBlocking(options)
            for line in report.lines { print(line) }
            // What --data costs a registration (docs/PERSISTENCE.md).
            let storeCost = try StoreCostBenchmark.runBlocking(connections: options.connections, duration: options.duration)
            for line in storeCost.lines { print(line) }
            return 0
        } catch {
            StandardError.write("imock bench: \(error)")
            return 1
        }
    }
}
