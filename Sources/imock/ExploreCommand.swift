import IMockCommon
import IMockHarness

/// `imock explore`: generated scenarios against a client, the documents' rules as properties,
/// failures shrunk to a fixture (exit 0 no finding, 1 findings, 64 usage).
enum ExploreCommand {
    /// Runs the command line after `explore`; returns the exit status.
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        CommandStart.run(
            "explore", arguments: arguments, help: ExploreOptions.usage,
            parse: { () throws(UsageError) in try ExploreOptions.parse(arguments, environment: environment) }
        ) { options in ExploreRun.runBlocking(options.configuration, output: options.output) }
    }
}
