import IMockCommon
import IMockNet
import IMockServer
@testable import imock
import IMockTestSupport
import Testing

/// `imock token`, run as a child process: offline tokens for a seed are accepted by a server
/// started with that seed; `--server` asks a running one; bad input exits 64 with a reason.
@Suite("imock token")
struct TokenCommandTests {
    static let seed = """
        {"version":1,"apps":[{"appKey":"acme#chat","clientId":"YXA6cid","clientSecret":"YXA6secret",
          "signingKey":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=","registrationMode":"open",
          "users":[{"username":"alice","password":"pw"}]},
         {"appKey":"acme#keyless","users":[{"username":"bob","password":"pw"}]}]}
        """

    private func imock(_ arguments: [String]) async throws -> ExternalCommand.Output {
        try await ExternalCommand.run(try IMockProcess.binaryPath(), arguments)
    }

    private func seedFile() throws -> String {
        let directory = try ExternalCommand.temporaryDirectory()
        try Files.writeAtomically(directory + "/seed.json", Array(Self.seed.utf8))
        return directory + "/seed.json"
    }

    @Test("offline app and user tokens are accepted by a server started with the same seed")
    func offlineTokensWork() async throws {
        let seed = try seedFile()
        let appToken = try await imock(["token", "--seed", seed, "--app", "acme#chat"])
        #expect(appToken.status == 0, "\(appToken.stderr)")
        let userToken = try await imock(["token", "--seed", seed, "--app", "acme#chat", "--user", "alice", "--ttl", "600"])
        #expect(userToken.status == 0, "\(userToken.stderr)")
        let server = try await IMockProcess.start(["--seed", seed, "--admin-secret", "s"])
        defer { _ = server.terminate() }
        let http = HTTPTestClient(port: server.port)
        let token = appToken.stdout.trimmingSuffix("\n")
        #expect(try http.request("GET", "/acme/chat/users/alice", token: token).status == 200)
        // The user token logs a device in over /ws.
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let socket = try await TestWebSocket.connect(loop: loop, port: server.port, path: "/ws")
        socket.send(text: """
            {"op":"login","id":"1","appKey":"acme#chat","user":"alice","token":"\(userToken.stdout.trimmingSuffix("\n"))",\
            "device":{"os":"ios","uuid":"u1","name":"phone"}}
            """)
        let answer = await socket.next()
        guard case .text(let text) = answer else { Issue.record("no login answer: \(String(describing: answer))"); return }
        #expect(text.contains(#""op":"login.ok""#), "\(text)")
    }

    @Test("--json prints the REST answer's shape")
    func json() async throws {
        let result = try await imock(["token", "--seed", try seedFile(), "--app", "acme#chat", "--ttl", "0", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(#"{"access_token":"YWMt"#))
        #expect(result.stdout.contains(#""expires_in":0,"application":"acme#chat"}"#))
    }

    @Test("--server asks the running server: app token with the admin secret, user token by inherit")
    func fromServer() async throws {
        let server = try await IMockProcess.start(["--seed", try seedFile(), "--admin-secret", "s"])
        defer { _ = server.terminate() }
        let url = "http://127.0.0.1:\(server.port)"
        let app = try await imock(["token", "--server", url, "--app", "acme#chat", "--admin-secret", "s"])
        #expect(app.status == 0, "\(app.stderr)")
        let user = try await imock([
            "token", "--server", url, "--app", "acme#chat", "--client-id", "YXA6cid", "--client-secret", "YXA6secret",
            "--user", "alice", "--json",
        ])
        #expect(user.status == 0, "\(user.stderr)")
        #expect(user.stdout.contains(#""access_token":"YWMt"#))
        let http = HTTPTestClient(port: server.port)
        #expect(try http.request("GET", "/acme/chat/users/alice", token: app.stdout.trimmingSuffix("\n")).status == 200)
        let wrong = try await imock(["token", "--server", url, "--app", "acme#chat", "--admin-secret", "wrong"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("HTTP 401"), "\(wrong.stderr)")
    }

    @Test(
        "refusals say why: exit 64 for bad usage or a bad seed, 1 for what the seed cannot mint",
        arguments: [
            ([], 64, "give --seed"),
            (["--seed", "SEED", "--server", "http://127.0.0.1:1"], 64, "not both"),
            (["--seed", "/nonexistent/seed.json"], 64, "--seed /nonexistent/seed.json"),
            (["--seed", "SEED"], 64, "several apps"),
            (["--seed", "SEED", "--app", "acme#none"], 64, "no app acme#none"),
            (["--seed", "SEED", "--app", "acme#keyless", "--user", "bob"], 1, "no signingKey"),
            (["--seed", "SEED", "--app", "acme#chat", "--user", "nobody"], 1, "no user nobody"),
            (["--seed", "SEED", "--ttl", "-1"], 64, "--ttl"),
            (["--seed", "SEED", "--client-id", "x"], 64, "are for --server"),
            (["--server", "http://127.0.0.1:1"], 64, "--admin-secret"),
            (["--server", "ftp://x"], 64, "--server ftp://x"),
        ] as [([String], Int32, String)])
    func refusals(arguments: [String], status: Int32, reason: String) async throws {
        let seed = try seedFile()
        let result = try await imock(["token"] + arguments.map { $0 == "SEED" ? seed : $0 })
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("imock token: "), "\(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("help is written from the option declarations")
    func help() async throws {
        let result = try await imock(["token", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout == TokenOptions.spec.help + "\n")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
