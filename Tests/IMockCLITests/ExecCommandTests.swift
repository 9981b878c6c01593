@testable import imock
import IMockTestSupport
import Testing

/// `imock exec [serve options] -- COMMAND`: a server for as long as a real child command runs.
@Suite("imock exec (process)")
struct ExecCommandTests {
    private func imock(_ arguments: [String]) async throws -> ExternalCommand.Output {
        try await ExternalCommand.run(try IMockProcess.binaryPath(), arguments)
    }

    /// A child that reads the variables, asks the control API for the app's credentials with the
    /// secret, logs the server's port and exits 3.
    private static let probe = """
        import json, os, urllib.request
        e = os.environ
        request = urllib.request.Request(e["IMOCK_SERVER"] + "/_imock/export", headers={"Authorization": "Bearer " + e["IMOCK_ADMIN_SECRET"]})
        apps = json.load(urllib.request.urlopen(request))["apps"]
        mine = [a for a in apps if a["appKey"] == e["IMOCK_APP_KEY"]][0]
        print(e["IMOCK_APP_KEY"], e["IMOCK_ORG"], e["IMOCK_APP"], mine["clientId"] == e["IMOCK_CLIENT_ID"], mine["clientSecret"] == e["IMOCK_CLIENT_SECRET"])
        print(e["IMOCK_APP_KEYS"])
        print(e["IMOCK_WS_URL"].replace(e["IMOCK_SERVER"].replace("http", "ws"), ""), e["IMOCK_MSYNC_URL"].rsplit("/", 1)[1])
        print(e["IMOCK_SERVER"].rsplit(":", 1)[1])
        raise SystemExit(3)
        """

    @Test("the command sees the server's URLs, secret and credentials, its status is exec's, and the server is gone afterwards")
    func runsTheCommand() async throws {
        try #require(ExternalCommand.isAvailable("python3"), "python3 is needed")
        let result = try await imock(["exec", "--app", "acme#chat", "--app", "acme#other", "--", "python3", "-c", Self.probe])
        #expect(result.status == 3, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result.stdout)")
        guard lines.count == 4 else { return }
        #expect(lines[0] == "acme#chat acme chat True True")
        #expect(lines[1] == "acme#chat acme#other")
        #expect(lines[2] == "/ws websocket")
        let port = try #require(UInt16(lines[3]))
        #expect(port != 5280)
        #expect(throws: (any Error).self) { try HTTPTestClient(port: port).request("GET", "/_imock/health") }
    }

    @Test("a given admin secret is kept; a signal that ends the command gives 128+N")
    func secretAndSignal() async throws {
        let result = try await imock(["exec", "--admin-secret", "s3cret", "--", "sh", "-c", "echo $IMOCK_ADMIN_SECRET; kill -TERM $$"])
        #expect(result.stdout == "s3cret\n")
        #expect(result.status == 128 + 15)
    }

    @Test("a SIGTERM to exec (a cancelled CI job) ends the command, stops the server and exits 143")
    func cancelled() async throws {
        // The command prints the server's port, then has exec (its parent) terminated.
        let result = try await imock(["exec", "--", "sh", "-c", "echo ${IMOCK_SERVER##*:}; kill -TERM $PPID; exec sleep 30"])
        #expect(result.status == 128 + 15)
        let port = try #require(UInt16(result.stdout.split(separator: "\n").first ?? ""))
        #expect(throws: (any Error).self) { try HTTPTestClient(port: port).request("GET", "/_imock/health") }
    }

    @Test("with --tls-cert the URLs are https and wss and the credentials are read over TLS")
    func tls() async throws {
        let directory = try ExternalCommand.temporaryDirectory()
        let (certificate, key) = try await ExternalCommand.makeSelfSignedCertificate(in: directory)
        let result = try await imock([
            "exec", "--tls-cert", certificate, "--tls-key", key, "--app", "acme#chat", "--",
            "sh", "-c", "echo ${IMOCK_SERVER%:*} ${IMOCK_WS_URL%:*} $IMOCK_APP_KEY ${IMOCK_CLIENT_ID:+has-id}",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "https://127.0.0.1 wss://127.0.0.1 acme#chat has-id\n")
    }

    @Test("a command that is not found exits 127, like a shell")
    func notFound() async throws {
        let result = try await imock(["exec", "--", "imock-no-such-command"])
        #expect(result.status == 127)
        #expect(result.stderr == "imock exec: imock-no-such-command: command not found\n")
    }

    @Test(
        "bad usage exits 64 with the reason and the usage, and runs nothing",
        arguments: [
            (["exec"], "imock exec: missing '--' before the command (imock exec [serve options] -- COMMAND [ARGS…])"),
            (["exec", "--port", "0"], "imock exec: missing '--' before the command (imock exec [serve options] -- COMMAND [ARGS…])"),
            (["exec", "--"], "imock exec: missing the command after '--'"),
            (["exec", "--port", "abc", "--", "touch", "ran"], "imock exec: option --port must be an integer in 0...65535, got 'abc'"),
            (["exec", "--frobnicate", "--", "touch", "ran"], "imock exec: unknown option '--frobnicate'"),
        ] as [([String], String)])
    func badUsage(arguments: [String], reason: String) async throws {
        let result = try await imock(arguments)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == reason + "\n\n" + ExecOptions.usage + "\n")
    }

    @Test("--help before the -- prints the usage; after it, it belongs to the command")
    func help() async throws {
        let help = try await imock(["exec", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout == ExecOptions.usage + "\n")
        let passed = try await imock(["exec", "--", "sh", "-c", "echo \"$1\"", "sh", "--help"])
        #expect(passed.status == 0)
        #expect(passed.stdout == "--help\n")
    }
}
