import IMockClient
import IMockCommon
import IMockHarness
import Testing

@testable import imock

/// `imock run`'s command line makes a `RunConfiguration` (docs/FIXTURES.md § Running).
@Suite("imock run options")
struct RunOptionsTests {
    @Test("bad usage is refused with 64 by the parser of imock run")
    func usage() {
        for arguments in [["--jobs", "0"], ["--bogus"], ["--server", "http://127.0.0.1:1"], ["--adapter", "noequals"], ["--seed-random", "-1"], ["--jobs"]] {
            #expect(throws: (any Error).self, "\(arguments)") { _ = try RunOptions.parse(arguments, environment: [:]) }
        }
        #expect(RunCommand.run(["--no-such-option"], environment: [:]) == 64)

        #expect(RunCommand.run(["--help"], environment: [:]) == 0)
        #expect(RunOptions.usage.contains("69 the --server"))
        #expect(ConformanceRun.serverUnavailableExitCode == 69)
    }

    @Test("--transport picks the dialect (and IMOCK_TRANSPORT); an unknown one is bad usage")
    func transport() throws {
        #expect(try RunOptions.parse(["--transport", "msync"], environment: [:]).settings.transport == .msync)
        #expect(try RunOptions.parse([], environment: ["IMOCK_TRANSPORT": "msync"]).settings.transport == .msync)
        #expect(try RunOptions.parse(["--transport", "openim"], environment: [:]).settings.transport == .openIM)
        #expect(try RunOptions.parse([], environment: [:]).settings.transport == .imockJSON)
        #expect(throws: UsageError.self) { try RunOptions.parse(["--transport", "msync2"], environment: [:]) }
        #expect(throws: (any Error).self) { _ = try RunOptions.parse(["--transport", "xmpp"], environment: [:]) }
        #expect(RunCommand.run(["--transport", "xmpp"], environment: [:]) == 64)
    }

    @Test("--hello-timeout sets how long a silent adapter is waited for; not a duration is bad usage")
    func helloTimeout() throws {
        #expect(try RunOptions.parse([], environment: [:]).settings.helloTimeout == .seconds(30))
        #expect(try RunOptions.parse(["--hello-timeout", "1"], environment: [:]).settings.helloTimeout == .seconds(1))
        #expect(throws: UsageError.self) { try RunOptions.parse(["--hello-timeout", "soon"], environment: [:]) }
        #expect(RunCommand.run(["--hello-timeout", "-1"], environment: [:]) == 64)
    }

    @Test("--app-key takes an existing app's org#app; anything else is bad usage")
    func appKey() throws {
        #expect(try RunOptions.parse(["--app-key", "acme#chat"], environment: [:]).settings.appKey == "acme#chat")
        #expect(try RunOptions.parse([], environment: ["IMOCK_APP_KEY": "acme#chat"]).settings.appKey == nil)
        for bad in ["acme", "acme#", "#chat", "a b#chat"] {
            #expect(throws: UsageError.self, "\(bad)") { try RunOptions.parse(["--app-key", bad], environment: [:]) }
        }
        #expect(RunCommand.run(["--app-key", "nohash"], environment: [:]) == 64)
    }

    @Test("no paths run the Fixtures directory; --server needs --admin-secret and makes the target external")
    func pathsAndServer() throws {
        #expect(try RunOptions.parse([], environment: [:]).paths == ["Fixtures"])
        #expect(try RunOptions.parse(["a.json", "dir"], environment: [:]).paths == ["a.json", "dir"])
        let external = try RunOptions.parse(["--server", "http://127.0.0.1:1"], environment: ["IMOCK_ADMIN_SECRET": "s"])
        #expect(external.settings.target == .external(url: "http://127.0.0.1:1", adminSecret: "s"))
        #expect(try RunOptions.parse(["--seed-random", "7", "--jobs", "3"], environment: [:]).settings.seedRandom == 7)
    }
}
