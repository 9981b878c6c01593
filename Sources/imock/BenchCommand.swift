import IMockBench
import IMockCommon

/// `imock bench`: parses its options and runs the scenarios (docs/BENCHMARKS.md).
enum BenchCommand {
    /// Runs `imock bench` with the arguments after `bench`; returns the exit status.
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        CommandStart.run(
            "bench", arguments: arguments, help: BenchOptions.usage,
            parse: { () throws(UsageError) in try BenchOptions.parse(arguments) },
            { options in BenchRunner.runBlocking(options, environment: environment) })
    }
}
