import IMockCommon
import IMockHarness

/// `imock run`: replays fixtures and reports (exit 0 passed, 1 failures, 64 usage, 65 invalid fixture).
enum RunCommand {
    /// Runs the command line after `run`; returns the exit status.
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        CommandStart.run(
            "run", arguments: arguments, help: RunOptions.usage,
            parse: { () throws(UsageError) in try RunOptions.parse(arguments, environment: environment) },
            ConformanceRun.runBlocking)
    }
}
