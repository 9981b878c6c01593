import Foundation
import IMockNet
import IMockTestSupport
import Testing

/// docs/SECURITY.md promises that no token, password, signing key or client secret reaches the
/// log, except the documented start-up lines: the banner's generated admin secret and demo-app
/// credentials, and at debug level the `app.credentials` lines of apps from `--app`/`--seed`.
/// A full scenario runs against `imock serve --log-level debug` (every line the server can
/// write), then the whole log is searched for every secret the scenario used or was given.
@Suite("No secret in the log")
struct LogSecretsTests {
    /// A value that must not be in the log, and the lines that may show it.
    struct Secret {
        var name: String
        var value: String
        var allowed: (Substring) -> Bool = { _ in false }
    }

    @Test("a full run at debug level logs no token, password, signing key or client secret beyond the banner")
    func fullRunLogsNoSecret() async throws {
        let server = try await IMockProcess.start(["--clock", "virtual", "--log-level", "debug"])
        let banner = server.logText
        let adminSecret = try #require(Self.word(after: "Admin secret", in: banner), "\(banner)")
        let demoID = try #require(Self.word(after: "client_id", in: banner), "\(banner)")
        let demoSecret = try #require(Self.word(after: "client_secret", in: banner), "\(banner)")
        let http = HTTPTestClient(port: server.port)
        var scenario = Scenario(http: http, port: server.port, adminSecret: adminSecret)
        try await scenario.run(demoID: demoID, demoSecret: demoSecret)
        try server.stop()

        let log = server.logText
        var secrets = scenario.secrets
        secrets.append(Secret(name: "the admin secret", value: adminSecret) { $0.contains("Admin secret") })
        secrets.append(Secret(name: "the demo app's client secret", value: demoSecret) { $0.contains("client_secret") })
        let leaks = Self.leaks(of: secrets, in: log)
        #expect(leaks.isEmpty, "secrets in the log:\n\(leaks.joined(separator: "\n"))\n--- log:\n\(log)")
        // The scenario did reach the server: kicks, expiry, fault drops and renewals were logged.
        #expect(log.contains("session.closed"), "\(log)")
        #expect(scenario.tokens.count >= 8)
        // The search itself finds what is there: the banner's secret.
        #expect(Self.leaks(of: [Secret(name: "admin", value: adminSecret)], in: log).count == 1)
    }

    @Test("a seeded app's client secret is logged at debug level only, on its app.credentials line")
    func seededCredentialsOnlyAtDebug() async throws {
        let clientSecret = "YXA6seeded-" + Self.random()
        let password = "ann-" + Self.random()
        let adminSecret = "given-" + Self.random()
        let signingKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let seed = """
            {"version":1,"apps":[{"appKey":"sec#seeded","clientId":"YXA6seededClient","clientSecret":"\(clientSecret)",\
            "signingKey":"\(signingKey)","users":[{"username":"ann","password":"\(password)"}]}]}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imock-log-secrets-\(Self.random()).json")
        try Data(seed.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for level in ["info", "debug"] {
            let server = try await IMockProcess.start(["--seed", file.path, "--log-level", level, "--admin-secret", adminSecret])
            try server.stop()
            let log = server.logText
            let key = Secret(name: "the signing key", value: signingKey)
            let others = [Secret(name: "the password", value: password), Secret(name: "the given admin secret", value: adminSecret)]
            let secret = Secret(name: "the client secret", value: clientSecret) {
                level == "debug" && $0.contains(" debug app.credentials appKey=sec#seeded ")
            }
            #expect(Self.leaks(of: [key, secret] + others, in: log).isEmpty, "\(level):\n\(log)")
            #expect(log.contains(clientSecret) == (level == "debug"), "\(level):\n\(log)")
        }
    }

    // MARK: Helpers

    /// Every line that shows a secret where it may not be, named.
    static func leaks(of secrets: [Secret], in log: String) -> [String] {
        var found: [String] = []
        for line in log.split(separator: "\n", omittingEmptySubsequences: true) {
            for secret in secrets where !secret.value.isEmpty && line.contains(secret.value) && !secret.allowed(line) {
                found.append("\(secret.name) (\(secret.value)) in: \(line)")
            }
        }
        return found
    }

    /// The first word after `label` in `text`.
    static func word(after label: String, in text: String) -> String? {
        guard let range = text.range(of: label) else { return nil }
        return text[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).first.map(String.init)
    }

    static func random() -> String { String(UInt64.random(in: 0...UInt64.max), radix: 36) }

    /// Register, tokens of every grant (and refused ones), logins, messages, a renewal, kicks by
    /// the control API and by REST, expiry, faults, the clock, a password change and the control
    /// API's reads, on an app seeded through the control API and on the demo app.
    struct Scenario {
        let http: HTTPTestClient
        let port: UInt16
        let adminSecret: String
        private(set) var secrets: [Secret] = []
        private(set) var tokens: [String] = []

        init(http: HTTPTestClient, port: UInt16, adminSecret: String) {
            self.http = http
            self.port = port
            self.adminSecret = adminSecret
        }

        mutating func run(demoID: String, demoSecret: String) async throws {
            let clientSecret = "YXA6secret-" + LogSecretsTests.random()
            let keyBytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
            let signingKey = Data(keyBytes).base64EncodedString()
            let alicePassword = "alice-" + LogSecretsTests.random()
            let bobPassword = "bob-" + LogSecretsTests.random()
            let davePassword = "dave-" + LogSecretsTests.random()
            let newPassword = "new-" + LogSecretsTests.random()
            let wrongAdmin = "wrong-admin-" + LogSecretsTests.random()
            let wrongSecret = "YXA6wrong-" + LogSecretsTests.random()
            let wrongPassword = "wrong-pw-" + LogSecretsTests.random()
            secrets += [
                Secret(name: "a client secret", value: clientSecret),
                Secret(name: "a signing key", value: signingKey),
                Secret(name: "a signing key (base64url)", value: Self.base64URL(signingKey)),
                Secret(name: "a signing key (hex)", value: keyBytes.map { String(format: "%02x", $0) }.joined()),
                Secret(name: "a password", value: alicePassword), Secret(name: "a password", value: bobPassword),
                Secret(name: "a password", value: davePassword), Secret(name: "a new password", value: newPassword),
                Secret(name: "a wrong admin secret", value: wrongAdmin),
                Secret(name: "a wrong client secret", value: wrongSecret),
                Secret(name: "a wrong password", value: wrongPassword),
            ]

            // State and credentials.
            try control("POST", "/_imock/seed", """
                {"version":1,"apps":[{"appKey":"sec#chat","registrationMode":"open","clientId":"YXA6secClient",\
                "clientSecret":"\(clientSecret)","signingKey":"\(signingKey)",\
                "users":[{"username":"alice","password":"\(alicePassword)"}]}]}
                """)
            #expect(try http.request("GET", "/_imock/clock", token: wrongAdmin).status == 401)
            try expect(200, "POST", "/sec/chat/users", #"{"username":"bob","password":"\#(bobPassword)"}"#)
            let appToken = try token(#"{"grant_type":"client_credentials","client_id":"YXA6secClient","client_secret":"\#(clientSecret)"}"#)
            #expect(try http.request("POST", "/sec/chat/token", json: #"{"grant_type":"client_credentials","client_id":"YXA6secClient","client_secret":"\#(wrongSecret)"}"#).status != 200)
            #expect(try http.request("POST", "/sec/chat/token", json: #"{"grant_type":"password","username":"alice","password":"\#(wrongPassword)"}"#).status != 200)
            let alice = try token(#"{"grant_type":"password","username":"alice","password":"\#(alicePassword)","ttl":3600}"#)
            let bob = try token(#"{"grant_type":"password","username":"bob","password":"\#(bobPassword)"}"#)
            let carol = try token(#"{"grant_type":"inherit","username":"carol","autoCreateUser":true}"#, bearer: appToken)
            // The demo app, with the banner's credentials.
            let demoToken = try token(#"{"grant_type":"client_credentials","client_id":"\#(demoID)","client_secret":"\#(demoSecret)"}"#, app: "/imock/demo")
            try expect(200, "POST", "/imock/demo/users", #"{"username":"dave","password":"\#(davePassword)"}"#, bearer: demoToken)
            let dave = try token(#"{"grant_type":"password","username":"dave","password":"\#(davePassword)"}"#, app: "/imock/demo")

            // Sessions: logins (and a forged token), a message, a renewal.
            let loop = try EventLoop()
            loop.start()
            defer { loop.stop() }
            let aliceSocket = try await login("alice", alice, expecting: "login.ok", loop: loop)
            let bobSocket = try await login("bob", bob, expecting: "login.ok", loop: loop)
            let carolSocket = try await login("carol", carol, expecting: "login.ok", loop: loop)
            let daveSocket = try await login("dave", dave, app: "imock#demo", expecting: "login.ok", loop: loop)
            let forged = String(alice.dropLast()) + (alice.hasSuffix("A") ? "B" : "A")
            secrets.append(Secret(name: "a forged token", value: forged))
            _ = try await login("alice", forged, expecting: "login.error", loop: loop)
            aliceSocket.send(text: #"{"op":"send","id":"m1","to":"bob","text":"hello"}"#)
            _ = try await Self.frame("message", on: bobSocket)
            let renewal = try token(#"{"grant_type":"password","username":"alice","password":"\#(alicePassword)","ttl":7200}"#)
            aliceSocket.send(text: #"{"op":"renewToken","id":"r1","token":"\#(renewal)"}"#)
            _ = try await Self.frame("renewToken.ok", on: aliceSocket)

            // Kicks, expiry, faults, the clock.
            try control("POST", "/_imock/apps/sec/chat/kick", #"{"user":"bob","code":206}"#)
            _ = try await Self.frame("kicked", on: bobSocket)
            try expect(200, "GET", "/sec/chat/users/carol/disconnect", nil, bearer: appToken)
            _ = try await Self.frame("kicked", on: carolSocket)
            try control("POST", "/_imock/apps/sec/chat/tokens/expire", #"{"user":"alice"}"#)
            _ = try await Self.frame("token.expired", on: aliceSocket)
            try control("POST", "/_imock/faults", #"{"kind":"delay","app":"imock#demo","user":"dave","ms":1}"#)
            try control("DELETE", "/_imock/faults", nil)
            try control("POST", "/_imock/faults", #"{"kind":"drop","app":"imock#demo","user":"dave"}"#)
            #expect(await Self.closed(daveSocket))
            try control("POST", "/_imock/clock/advance", #"{"ms":3600000}"#)

            // A password change (every device kicked with 216) and the control API's reads.
            let bob2 = try token(#"{"grant_type":"password","username":"bob","password":"\#(bobPassword)"}"#)
            let bobAgain = try await login("bob", bob2, expecting: "login.ok", loop: loop)
            try expect(200, "PUT", "/sec/chat/users/bob/password", #"{"newpassword":"\#(newPassword)"}"#, bearer: appToken)
            _ = try await Self.frame("kicked", on: bobAgain)
            _ = try token(#"{"grant_type":"password","username":"bob","password":"\#(newPassword)"}"#)
            for path in ["/_imock/export", "/_imock/apps/sec/chat/tokens", "/_imock/journal", "/_imock/metrics", "/_imock/faults"] {
                #expect(try http.raw("GET", path, headers: ["Authorization: Bearer \(adminSecret)"]).head.status == 200, "\(path)")
            }
            try control("POST", "/_imock/apps/sec/chat/settings", #"{"defaultTokenTTLSeconds":60}"#)
            for token in tokens {
                secrets.append(Secret(name: "a token", value: token))
                // Its claims and its MAC, should they be written apart.
                let parts = token.dropFirst(4).split(separator: ".")
                for part in parts where part.count >= 16 { secrets.append(Secret(name: "part of a token", value: String(part))) }
            }
        }

        private mutating func token(_ body: String, bearer: String? = nil, app: String = "/sec/chat") throws -> String {
            let answer = try http.request("POST", "\(app)/token", json: body, token: bearer)
            guard let token = answer.body["access_token"]?.string else { throw FixtureFailure(description: "\(body): \(answer)") }
            tokens.append(token)
            return token
        }

        private func control(_ method: String, _ path: String, _ body: String?) throws {
            try expect(200, method, path, body, bearer: adminSecret)
        }

        private func expect(_ status: Int, _ method: String, _ path: String, _ body: String?, bearer: String? = nil) throws {
            let answer = try http.request(method, path, json: body, token: bearer)
            guard answer.status == status else { throw FixtureFailure(description: "\(method) \(path): \(answer)") }
        }

        private func login(_ user: String, _ token: String, app: String = "sec#chat", expecting op: String, loop: EventLoop)
            async throws -> TestWebSocket
        {
            let socket = try await TestWebSocket.connect(loop: loop, port: port)
            socket.send(text: #"{"op":"login","id":"1","appKey":"\#(app)","user":"\#(user)","token":"\#(token)","device":{"os":"ios","uuid":"\#(user)-\#(LogSecretsTests.random())"}}"#)
            _ = try await Scenario.frame(op, on: socket)
            return socket
        }

        /// The next frame with this op (others are skipped).
        static func frame(_ op: String, on socket: TestWebSocket) async throws -> String {
            while let event = await socket.next() {
                switch event {
                case .text(let text) where text.contains(#""op":"\#(op)""#): return text
                case .text: continue
                default: throw FixtureFailure(description: "waiting for \(op): \(event)")
                }
            }
            throw FixtureFailure(description: "waiting for \(op): the connection ended")
        }

        static func closed(_ socket: TestWebSocket) async -> Bool {
            while let event = await socket.next() {
                if case .closed = event { return true }
                if event == .timedOut { return false }
            }
            return true
        }

        static func base64URL(_ base64: String) -> String {
            String(base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").prefix { $0 != "=" })
        }
    }
}
