import IMockCommon
import Testing

@testable import imock

/// `imock soak`'s command line (docs/SOAK.md § Running).
@Suite("imock soak options")
struct SoakOptionsTests {
    @Test func defaultsAreOneMinuteInProcess() throws {
        let options = try SoakOptions.parse([], environment: [:])
        #expect(options.seconds == nil && options.serverURL == nil && !options.json)
        #expect(options.devices == 48 && options.seed == 1 && options.maximumMemoryGrowthMiB == 64)
    }

    @Test func durationSeedDevicesAndBound() throws {
        let options = try SoakOptions.parse(
            ["--minutes", "5", "--seed", "18446744073709551615", "--devices", "16", "--max-memory-growth-mib", "8", "--json"],
            environment: [:])
        #expect(options.seconds == 300 && options.seed == .max && options.devices == 16)
        #expect(options.maximumMemoryGrowthMiB == 8 && options.json)
        #expect(try SoakOptions.parse(["--seconds", "7"], environment: [:]).seconds == 7)
    }

    @Test func anExternalServer() throws {
        let options = try SoakOptions.parse(
            ["--server", "http://127.0.0.1:5280", "--server-pid", "42"], environment: ["IMOCK_ADMIN_SECRET": "s"])
        #expect(options.serverURL == "http://127.0.0.1:5280" && options.adminSecret == "s" && options.serverPID == 42)
    }

    @Test(arguments: [
        (["--minutes", "1", "--seconds", "5"], "give --minutes or --seconds, not both"),
        (["--server", "http://127.0.0.1:1"], "--server needs --admin-secret (or IMOCK_ADMIN_SECRET): the soak steers the server through its control API"),
        (["--server-pid", "3"], "--server-pid is for --server"),
        (["--minutes", "0"], "option --minutes must be an integer in 1...1440, got '0'"),
        (["--devices", "15"], "option --devices must be an integer in 16...10000, got '15'"),
        (["--seed", "-1"], "option --seed must be an integer in 0...18446744073709551615, got '-1'"),
    ])
    func badUsage(_ arguments: [String], _ message: String) {
        #expect(throws: UsageError(message)) { try SoakOptions.parse(arguments, environment: [:]) }
        #expect(SoakCommand.run(arguments, environment: [:]) == UsageError.exitCode)
    }

    @Test func helpListsEveryOption() {
        let help = SoakOptions.spec.help
        for option in SoakOptions.spec.options { #expect(help.contains(option.name), "\(option.name)") }
        #expect(CommandTable.run(["soak", "--help"], environment: [:]) == 0)
    }
}
