import IMockCommon
import IMockNet
import IMockCore
import IMockServer
import Testing

@testable import imock

/// `imock serve`'s command line makes a `ServerConfiguration`.
@Suite("ServeOptions.parse")
struct ServeOptionsTests {
    @Test("no arguments give the defaults")
    func defaults() throws {
        let options = try ServeOptions.parse([])
        #expect(options == ServerConfiguration())
        #expect(options.host == "127.0.0.1")
        #expect(options.port == 5280)
        #expect(options.logFormat == .text)
        #expect(options.tlsCertificatePath == nil && options.tlsKeyPath == nil)
        #expect(options.maxHeaderBytes == 16 * 1024)
        #expect(options.maxBodyBytes == 1 << 20)
        #expect(options.maxConnections == HTTPServerConfiguration.defaultMaxConnections)
    }

    @Test("every option, with separate and inline values")
    func everyOption() throws {
        let options = try ServeOptions.parse([
            "--host", "::", "--port=0", "--tls-cert", "cert.pem", "--tls-key=key.pem", "--log-format", "json",
            "--max-header-bytes", "2048", "--max-body-bytes=10", "--header-timeout", "0.5", "--body-timeout", "2",
            "--idle-timeout=0.25", "--max-connections", "7", "--max-ws-message-bytes", "125",
            "--app", "acme#chat:open", "--app=acme#admin", "--seed", "seed.json", "--clock", "virtual",
            "--admin-secret", "s3cret", "--control-remote", "--session-idle-timeout", "5",
            "--token-warning-percent", "90", "--seed-random", "42", "--log-level", "debug", "--exit-with-parent",
        ])
        var expected = ServerConfiguration()
        expected.host = "::"
        expected.port = 0
        expected.tlsCertificatePath = "cert.pem"
        expected.tlsKeyPath = "key.pem"
        expected.logFormat = .json
        expected.maxHeaderBytes = 2048
        expected.maxBodyBytes = 10
        expected.headerTimeout = .milliseconds(500)
        expected.bodyTimeout = .seconds(2)
        expected.idleTimeout = .milliseconds(250)
        expected.maxConnections = 7
        expected.maxWebSocketMessageBytes = 125
        expected.apps = [.init(key: "acme#chat", registrationMode: .open), .init(key: "acme#admin", registrationMode: .authorized)]
        expected.seedPath = "seed.json"
        expected.clockMode = .virtual
        expected.adminSecret = "s3cret"
        expected.controlRemote = true
        expected.sessionIdleTimeout = .seconds(5)
        expected.tokenWarningPercent = 90
        expected.randomSeed = 42
        expected.logLevel = .debug
        expected.exitWithParent = true
        #expect(options == expected)
    }

    @Test("the last of a repeated option wins")
    func repeated() throws {
        #expect(try ServeOptions.parse(["--port", "1", "--port", "2"]).port == 2)
    }

    @Test(
        "bad arguments throw a UsageError naming the option",
        arguments: [
            (["--port", "65536"], "option --port must be an integer in 0...65535, got '65536'"),
            (["--port", "-1"], "option --port must be an integer in 0...65535, got '-1'"),
            (["--port", "8o"], "option --port must be an integer in 0...65535, got '8o'"),
            (["--port"], "option --port needs a value"),
            (["--port", "--host", "x"], "option --port needs a value"),
            (["--port="], "option --port must be an integer in 0...65535, got ''"),
            (["--host"], "option --host needs a value"),
            (["--max-header-bytes", "1023"], "option --max-header-bytes must be an integer in 1024...16777216, got '1023'"),
            (["--max-body-bytes", "1073741825"], "option --max-body-bytes must be an integer in 0...1073741824, got '1073741825'"),
            (["--max-connections", "0"], "option --max-connections must be an integer in 1...1000000, got '0'"),
            (["--token-warning-percent", "100"], "option --token-warning-percent must be an integer in 1...99, got '100'"),
            (["--clock", "fast"], "option --clock must be system or virtual, got 'fast'"),
            (["--log-level", "loud"], "option --log-level must be debug, info, warning or error, got 'loud'"),
            (["--app", "acme#chat:closed"], "option --app: registration mode must be open or authorized, got 'closed'"),
            (["--app", "a#b", "--app", "a#b"], "option --app: a#b is given twice"),
            (["--admin-secret="], "option --admin-secret must not be empty"),
            (["--control-remote=yes"], "option --control-remote takes no value"),
            (["--max-ws-message-bytes", "124"], "option --max-ws-message-bytes must be an integer in 125...268435456, got '124'"),
            (["--header-timeout", "0"], "option --header-timeout must be a number of seconds in (0, 86400], got '0'"),
            (["--body-timeout", "86401"], "option --body-timeout must be a number of seconds in (0, 86400], got '86401'"),
            (["--idle-timeout", "soon"], "option --idle-timeout must be a number of seconds in (0, 86400], got 'soon'"),
            (["--log-format", "XML"], "option --log-format must be text or json, got 'XML'"),
            (["--tls-cert", "cert.pem"], "--tls-cert and --tls-key must be given together"),
            (["--tls-key", "key.pem"], "--tls-cert and --tls-key must be given together"),
            (["--verbose"], "unknown option '--verbose'"),
            (["-p", "1"], "unexpected argument '-p'"),
            (["5280"], "unexpected argument '5280'"),
        ] as [([String], String)])
    func badArguments(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try ServeOptions.parse(arguments) }
    }

    @Test("the HTTP configuration carries the limits and timeouts")
    func httpConfiguration() throws {
        let options = try ServeOptions.parse([
            "--max-header-bytes", "2048", "--max-body-bytes", "99", "--header-timeout", "1", "--body-timeout", "2",
            "--idle-timeout", "3", "--max-connections", "4", "--max-ws-message-bytes", "5000",
        ])
        let configuration = options.httpConfiguration(tls: nil)
        #expect(configuration.limits.maxHeaderBytes == 2048)
        #expect(configuration.limits.maxBodyBytes == 99)
        #expect(configuration.headerTimeout == .seconds(1))
        #expect(configuration.bodyTimeout == .seconds(2))
        #expect(configuration.idleTimeout == .seconds(3))
        #expect(configuration.maxConnections == 4)
        #expect(configuration.maxWebSocketMessageBytes == 5000)
        #expect(configuration.tls == nil)
    }

    @Test("--seed-random takes an unsigned 64-bit integer and does not clash with --seed")
    func seedRandom() throws {
        #expect(try ServeOptions.parse(["--seed-random", "18446744073709551615"]).randomSeed == UInt64.max)
        #expect(try ServeOptions.parse([]).randomSeed == nil)
        #expect(throws: UsageError.self) { try ServeOptions.parse(["--seed-random", "-1"]) }
        #expect(throws: UsageError.self) { try ServeOptions.parse(["--seed-random", "x"]) }
    }

    @Test("IMOCK_DATA names the directory when --data is absent")
    func dataDirectoryFromEnvironment() throws {
        let data = "/tmp/imock-data"
        #expect(try ServeOptions.parse([], environment: ["IMOCK_DATA": data]).dataDirectory == data)
        #expect(try ServeOptions.parse(["--data", "/x"], environment: ["IMOCK_DATA": data]).dataDirectory == "/x")
        #expect(throws: (any Error).self) { try ServeOptions.parse(["--data", ""]) }
    }
}
