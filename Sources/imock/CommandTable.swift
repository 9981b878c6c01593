#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import IMockCommon
import IMockHarness
import IMockServer

/// One command of `imock`: its name, a line for the top-level help, and how it runs.
struct IMockCommand: Sendable {
    /// The word after `imock`.
    let name: String
    /// One line for `imock --help`.
    let summary: String
    /// Runs the command with the arguments after its name and the environment; returns the exit
    /// status (0 done, 1 failed, 64 bad usage, or the command's own).
    let run: @Sendable ([String], [String: String]) -> Int32
}

/// The `imock` command line: a table of commands, each with its own options and `--help`.
enum CommandTable {
    /// Every command, in help order.
    static let commands: [IMockCommand] = [
        IMockCommand(name: "serve", summary: "Run the mock server (REST, session connections, control API).", run: ServeCommand.run),
        IMockCommand(
            name: "exec", summary: "Run a command against a fresh server on a free port, its addresses and secret in the environment.",
            run: ExecCommand.run),
        IMockCommand(
            name: "run", summary: "Replay scenario fixtures and check the callback order the vendor documents require.", run: RunCommand.run),
        IMockCommand(
            name: "explore", summary: "Generate scenarios against a client, check the documents' rules, shrink failures to fixtures.",
            run: ExploreCommand.run),
        IMockCommand(
            name: "token", summary: "Print an app or user token: minted offline for a seed file, or asked from a running server.",
            run: TokenCommand.run),
        IMockCommand(
            name: "bench", summary: "Measure the IM work (logins, kicks, fleets, messages, REST) against baselines.", run: BenchCommand.run),
        IMockCommand(
            name: "soak", summary: "Run a bounded soak (logins, kicks, expiries, messages, faults) and count every message.",
            run: SoakCommand.run),
        IMockCommand(
            name: "callbacks", summary: "Print every profile's callbacks and their arguments as JSON (for adapter authors).",
            run: CallbacksCommand.run),
        IMockCommand(
            name: "record", summary: "Export a recorded session (POST /_imock/record) as a fixture that replays it.",
            run: RecordCommand.run),
        IMockCommand(name: "version", summary: "Print the version.", run: { _, _ in VersionCommand.run() }),
    ]

    /// `imock --help`, written from the table.
    static var usage: String {
        let width = (commands.map(\.name.count).max() ?? 0) + 4
        let lines = commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + $0.summary }
        return """
            USAGE: imock <command> [options]

            imock is a mock IM backend (Easemob / Agora Chat, OpenIM, ZIM style) and conformance harness.

            COMMANDS:
            \(lines.joined(separator: "\n"))

            Run 'imock <command> --help' for a command's options.
              -h, --help     Show this help.
              --version      Print the version.
            """
    }

    /// Runs the command line and returns the process exit status.
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        guard let name = arguments.first else {
            StandardError.write("imock: missing command\n\n\(usage)")
            return UsageError.exitCode
        }
        switch name {
        case "-h", "--help", "help":
            print(usage)
            return 0
        case "--version":
            return VersionCommand.run()
        default:
            guard let command = commands.first(where: { $0.name == name }) else {
                StandardError.write("imock: unknown command '\(name)'\n\n\(usage)")
                return UsageError.exitCode
            }
            return command.run(Array(arguments.dropFirst()), environment)
        }
    }
}

/// `imock version` and `imock --version`.
enum VersionCommand {
    static func run() -> Int32 {
        print("imock \(IMockVersion.current)")
        return 0
    }
}
