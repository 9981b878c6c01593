import IMockBench
import IMockClient
import IMockCommon
import IMockCore
import IMockServer
@testable import imock
import IMockTestSupport
import Testing

/// The `imock` executable's command line, run as a child process.
@Suite("imock command line (process)")
struct ServeCLITests {
    private func imock(_ arguments: [String]) async throws -> ExternalCommand.Output {
        try await ExternalCommand.run(try IMockProcess.binaryPath(), arguments)
    }

    @Test(
        "help prints the usage on stdout and exits 0",
        arguments: [
            (["--help"], CommandTable.usage),
            (["-h"], CommandTable.usage),
            (["help"], CommandTable.usage),
            (["serve", "--help"], ServeOptions.usage),
            (["serve", "--port", "1", "-h"], ServeOptions.usage),
            (["bench", "--help"], BenchOptions.usage),
        ])
    func help(arguments: [String], usage: String) async throws {
        let result = try await imock(arguments)
        #expect(result.status == 0)
        #expect(result.stdout == usage + "\n")
        #expect(result.stderr == "")
        #expect(usage.hasPrefix("USAGE: imock"))
    }

    @Test("imock callbacks prints the schema of docs/callbacks.json, or one profile's part of it")
    func callbacks() async throws {
        let all = try await imock(["callbacks"])
        #expect(all.status == 0 && all.stderr == "")
        #expect(all.stdout == CallbackSchema.json().prettyString)
        let zim = try await imock(["callbacks", "--profile", "zim"])
        #expect(zim.status == 0)
        #expect(try JSONValue.parse(Array(zim.stdout.utf8))["callbacks"]?["loginCallback"] != nil)
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await imock(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "imock \(IMockVersion.current)\n")
        #expect(result.stderr == "")
    }

    @Test(
        "bad usage exits 64 with a one-line reason, then the usage, on stderr",
        arguments: [
            ([], "imock: missing command", CommandTable.usage),
            (["bogus"], "imock: unknown command 'bogus'", CommandTable.usage),
            (["serve", "--port", "70000"],
             "imock serve: option --port must be an integer in 0...65535, got '70000'", ServeOptions.usage),
            (["serve", "--port", "abc"],
             "imock serve: option --port must be an integer in 0...65535, got 'abc'", ServeOptions.usage),
            (["serve", "--port"], "imock serve: option --port needs a value", ServeOptions.usage),
            (["serve", "--tls-cert", "/nonexistent/cert.pem"],
             "imock serve: --tls-cert and --tls-key must be given together", ServeOptions.usage),
            (["serve", "--log-format", "xml"],
             "imock serve: option --log-format must be text or json, got 'xml'", ServeOptions.usage),
            (["serve", "--frobnicate"], "imock serve: unknown option '--frobnicate'", ServeOptions.usage),
            (["serve", "extra"], "imock serve: unexpected argument 'extra'", ServeOptions.usage),
            (["bench", "--connections", "0"],
             "imock bench: option --connections must be an integer in 1...10000, got '0'", BenchOptions.usage),
            (["bench", "--seconds", "0"],
             "imock bench: option --seconds must be a number of seconds in (0, 86400], got '0'", BenchOptions.usage),
            (["bench", "--frobnicate"], "imock bench: unknown option '--frobnicate'", BenchOptions.usage),
            (["callbacks", "--profile", "wechat"],
             "imock callbacks: --profile: 'wechat' is not one of easemob, openim, zim", CallbacksOptions.spec.help),
            (["callbacks", "extra"], "imock callbacks: unexpected argument 'extra'", CallbacksOptions.spec.help),
        ] as [([String], String, String)])
    func badUsage(arguments: [String], reason: String, usage: String) async throws {
        let result = try await imock(arguments)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == reason + "\n\n" + usage + "\n")
    }
}
