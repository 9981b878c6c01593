import IMockCommon
import IMockServer
import Testing

@testable import imock

/// The declarations that parse a command's options also write its help, and every `serve`
/// option can come from its environment variable (the flag wins).
@Suite("Command-line declarations")
struct OptionDeclarationTests {
    @Test("every serve option is in the help with its environment variable")
    func helpListsEveryOption() {
        let help = ServeOptions.usage
        for option in ServeOptions.spec.options {
            #expect(help.contains(option.name), "\(option.name)")
            if let variable = option.environment { #expect(help.contains("[$\(variable)]"), "\(variable)") }
        }
        #expect(help.hasPrefix("USAGE: imock serve [options]"))
    }

    @Test("every command declares each option once (imock run once had two --transport declarations)")
    func optionsAreDeclaredOnce() {
        let commands: [(String, [String])] = [
            ("serve", ServeOptions.spec.options.map(\.name)), ("run", RunOptions.spec.options.map(\.name)),
            ("bench", BenchOptions.spec.options.map(\.name)), ("soak", SoakOptions.spec.options.map(\.name)),
            ("token", TokenOptions.spec.options.map(\.name)), ("explore", ExploreOptions.spec.options.map(\.name)),
        ]
        for (command, names) in commands {
            let repeated = Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
            #expect(repeated.isEmpty, "imock \(command) declares \(repeated) more than once")
        }
    }

    @Test("environment variables give options; the flag wins")
    func environment() throws {
        let environment = [
            "IMOCK_PORT": "0", "IMOCK_CLOCK": "virtual", "IMOCK_ADMIN_SECRET": "s", "IMOCK_CONTROL_REMOTE": "1",
            "IMOCK_CLOCK_START": "1900000000000", "IMOCK_MAX_WS_OUTPUT_BYTES": "65536",
        ]
        let options = try ServeOptions.parse([], environment: environment)
        #expect(options.port == 0 && options.clockMode == .virtual && options.adminSecret == "s")
        #expect(options.controlRemote && options.clockStartMs == 1_900_000_000_000)
        #expect(options.maxWebSocketOutputBytes == 65_536)
        #expect(try ServeOptions.parse(["--port", "7"], environment: environment).port == 7)
        #expect(!(try ServeOptions.parse([], environment: ["IMOCK_CONTROL_REMOTE": "no"]).controlRemote))
    }

    @Test("a bad environment variable is a usage error naming it")
    func badEnvironment() {
        #expect(throws: UsageError("environment variable IMOCK_PORT: option --port must be an integer in 0...65535, got 'x'")) {
            try ServeOptions.parse([], environment: ["IMOCK_PORT": "x"])
        }
    }

    @Test("the top-level help lists every command of the table")
    func commandTable() {
        for command in CommandTable.commands { #expect(CommandTable.usage.contains("  \(command.name) ")) }
        #expect(CommandTable.run(["version"], environment: [:]) == 0)
        #expect(CommandTable.run(["nope"], environment: [:]) == UsageError.exitCode)
    }

    @Test("flag names map to IMOCK_ variables")
    func environmentNames() {
        #expect(CommandLineSpec<ServeOptions>.environmentName(for: "--max-body-bytes") == "IMOCK_MAX_BODY_BYTES")
        #expect(CommandLineSpec<ServeOptions>.environmentName(for: "--port") == "IMOCK_PORT")
    }
}
