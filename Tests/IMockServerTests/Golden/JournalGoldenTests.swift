import IMockCommon
import Foundation
import IMockServer
import IMockTestSupport
import Testing

/// One scenario through every kind of journal entry (logins accepted and refused, policy and
/// REST and control kicks, token warning and expiry, renewal, logout, same-device replacement,
/// an app switch, a user deletion), compared byte for byte with `journal-golden.json`: the
/// journal is a contract of the control API, and restructuring the engine must not change it.
/// Connection ids are process-wide, so they are renumbered in order of first appearance.
@Suite("Journal golden scenario")
struct JournalGoldenTests {
    static let goldenPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("journal-golden.json").path

    @Test("the scenario's journal is byte-identical to the golden file")
    func journalMatchesGolden() async throws {
        let journal = try await Self.runScenario()
        if ProcessInfo.processInfo.environment["IMOCK_WRITE_GOLDEN"] == "1" {
            try journal.write(toFile: Self.goldenPath, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOfFile: Self.goldenPath, encoding: .utf8)
        let got = journal.split(separator: "\n")
        let want = golden.split(separator: "\n")
        #expect(got.count == want.count)
        for (index, (line, expected)) in zip(got, want).enumerated() where line != expected {
            Issue.record("line \(index + 1) differs:\n got  \(line)\n want \(expected)")
            break
        }
    }

    /// Runs the scenario on a virtual clock set to a fixed time; returns one journal entry per
    /// line with connection ids renumbered.
    static func runScenario() async throws -> String {
        let fixture = try SessionFixture(clock: .virtual)
        defer { Task { await fixture.stop() } }
        #expect(try fixture.control("POST", "/_imock/clock/set", json: #"{"epochMs":1900000000000}"#).status == 200)
        let policy = #"{"loginPolicy":{"vendor":"easemob","deviceLimits":{"default":4,"mobile":1}}}"#
        #expect(try fixture.control("POST", "/_imock/apps/acme/chat/settings", json: policy).status == 200)
        let alice = try fixture.userToken("alice", ttl: 100)
        let bob = try fixture.userToken("bob", ttl: 3600)
        _ = try fixture.userToken("carol")

        // Refusals: unknown app, invalid token, another user's token.
        for (app, user, token) in [("nope#app", "alice", alice), ("acme#chat", "alice", "YWMtbogus"), ("acme#chat", "alice", bob)] {
            let client = try await ProtocolClient.connect(loop: fixture.clientLoop, port: fixture.server.port)
            client.login(app: app, user: user, token: token, uuid: "x")
            _ = await client.next(op: "<closed>")
        }
        // Policy kick: a second mobile device of alice.
        let phone = try await fixture.device("alice", token: alice, os: "ios", uuid: "phone", name: "Phone", extensionInfo: "e1")
        let tablet = try await fixture.device("alice", token: alice, os: "android", uuid: "tablet", name: "Tablet", extensionInfo: "e2")
        _ = await phone.next(op: "<closed>")
        // Same-device replacement (close 4206), then a token warning, a renewal, an expiry.
        let tablet2 = try await fixture.device("alice", token: alice, os: "android", uuid: "tablet", name: "Tablet")
        _ = await tablet.next(op: "<closed>")
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":80000}"#).status == 200)
        _ = await tablet2.next(op: "token.willExpire")
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":20000}"#).status == 200)
        _ = await tablet2.next(op: "<closed>")
        // REST disconnect (217), a control kick with OpenIM's code and a device, logout.
        let bobWeb = try await fixture.device("bob", token: bob, os: "web", uuid: "bw")
        let appToken = try await fixture.appToken()
        #expect(try fixture.http.request("GET", "/acme/chat/users/bob/disconnect", token: appToken).status == 200)
        _ = await bobWeb.next(op: "<closed>")
        let bobMac = try await fixture.device("bob", token: bob, os: "macos", uuid: "bm")
        let kick = #"{"user":"bob","code":2002,"reason":"test kick","byDeviceName":"Admin","byExtension":"x"}"#
        #expect(try fixture.control("POST", "/_imock/apps/acme/chat/kick", json: kick).status == 200)
        _ = await bobMac.next(op: "<closed>")
        let bobLinux = try await fixture.device("bob", token: bob, os: "linux", uuid: "bl")
        bobLinux.send(#"{"op":"logout","id":"bye"}"#)
        _ = await bobLinux.next(op: "<closed>")
        // Password change (216), app disabled (305), user deleted (207).
        let carol = try await fixture.device("carol", token: try fixture.userToken("carol", register: false), uuid: "c1")
        #expect(try fixture.http.request("PUT", "/acme/chat/users/carol/password", json: #"{"newpassword":"pw2"}"#, token: appToken).status == 200)
        _ = await carol.next(op: "<closed>")
        let carol2 = try await fixture.device("carol", token: try fixture.http.userTokenWith(password: "pw2", user: "carol"), uuid: "c2")
        #expect(try fixture.control("POST", "/_imock/apps/acme/chat/settings", json: #"{"serviceEnabled":false}"#).status == 200)
        _ = await carol2.next(op: "<closed>")
        #expect(try fixture.control("POST", "/_imock/apps/acme/chat/settings", json: #"{"serviceEnabled":true}"#).status == 200)
        let carol3 = try await fixture.device("carol", token: try fixture.http.userTokenWith(password: "pw2", user: "carol"), uuid: "c3")
        #expect(try fixture.http.request("DELETE", "/acme/chat/users/carol", token: appToken).status == 200)
        _ = await carol3.next(op: "<closed>")

        let text = try fixture.http.requestText("GET", "/_imock/journal", token: InProcessServer.adminSecret)
        return try renumbered(text)
    }

    /// One entry per line, `"connection":N` renumbered 1, 2, 3 … in order of first appearance.
    static func renumbered(_ journalJSON: String) throws -> String {
        guard let start = journalJSON.range(of: #"{"entries":["#), journalJSON.hasSuffix("]}") else {
            throw FixtureFailure(description: "not a journal: \(journalJSON)")
        }
        var body = String(journalJSON[start.upperBound...].dropLast(2))
        var numbers: [String: Int] = [:]
        var output = ""
        while let range = body.range(of: #""connection":"#) {
            output += body[..<range.upperBound]
            body = String(body[range.upperBound...])
            let digits = body.prefix { $0.isNumber }
            let number = numbers[String(digits)] ?? (numbers.count + 1)
            numbers[String(digits)] = number
            output += String(number)
            body = String(body.dropFirst(digits.count))
        }
        output += body
        return output.replacing(#"},{"seq""#, with: "}\n{\"seq\"") + "\n"
    }
}

extension HTTPTestClient {
    /// A password-grant user token for an existing user with `password`.
    func userTokenWith(password: String, user: String) throws -> String {
        let token = try request(
            "POST", "/acme/chat/token", json: #"{"grant_type":"password","username":"\#(user)","password":"\#(password)"}"#)
        guard let value = token.body["access_token"]?.string else { throw FixtureFailure(description: "\(token)") }
        return value
    }
}
