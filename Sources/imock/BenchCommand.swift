import IMockBench
import IMockCommon

/// `imock bench`: parses its options and runs the scenarios (docs/BENCHMARKS.md).
enum BenchCommand {
    /// Runs `imock bench` with the arguments after `bench`; returns the exit status.
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(BenchOptions.usage)
            return 0
        }
        let options: BenchOptions
        do {
            options = try BenchOptions.parse(arguments)
        } catch {
            StandardError.write("imock bench: \(error)\n\n\(BenchOptions.usage)")
            return UsageError.exitCode
        }
        return BenchRunner.runBlocking(options, environment: environment)
    }
}
