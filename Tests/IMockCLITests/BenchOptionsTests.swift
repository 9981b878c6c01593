import IMockBench
import IMockCommon
import Testing

@testable import imock

@Suite("imock bench: options")
struct BenchOptionsTests {
    @Test("defaults, scenarios as positionals, values, and bad usage naming the option or scenario")
    func parsing() throws {
        let defaults = try BenchOptions.parse([])
        #expect(defaults.scenarios.isEmpty)
        #expect(defaults.devices == 10_000 && defaults.fleet == 15_000 && defaults.inFlight == 200)
        #expect(defaults.rounds == 1 && !defaults.compare && !defaults.json)

        let options = try BenchOptions.parse([
            "login-storm", "kick", "login-storm", "--compare", "--rounds", "4", "--json", "--devices", "50", "--seconds=0.5",
            "--dialect", "imock-json", "--no-tls",
        ])
        #expect(options.scenarios == [.loginStorm, .kick])
        #expect(options.compare && options.rounds == 4 && options.json && !options.tls)
        #expect(options.devices == 50 && options.duration == .milliseconds(500) && options.dialects == ["imock-json"])

        #expect(throws: UsageError("unknown scenario 'dance'; one of rest, login-storm, fleet, kick, messages, catalogue, transport, store-cost")) {
            try BenchOptions.parse(["dance"])
        }
        #expect(throws: UsageError("option --rounds must be an integer in 3...100, got '2'")) {
            try BenchOptions.parse(["--compare", "--rounds", "2"])
        }
        #expect(try BenchOptions.parse(["--dialect", "msync", "--dialect", "openim"]).dialects == ["msync", "openim"])
        #expect(throws: UsageError("option --dialect must be one of imock-json, msync, openim, got 'xmpp'")) {
            try BenchOptions.parse(["--dialect", "xmpp"])
        }
        #expect(throws: UsageError("option --seconds needs a value")) { try BenchOptions.parse(["--seconds"]) }
        #expect(throws: UsageError("unknown option '--port'")) { try BenchOptions.parse(["--port", "1"]) }
    }
}
