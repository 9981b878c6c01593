import IMockCommon
import IMockServer
import IMockTestSupport
import Testing

/// With `--seed-random` and `--clock-start`, a run is reproducible: two servers that get the
/// same requests produce the same ids, keys, salts, tokens, fault choices, export and journal.
@Suite("Reproducible runs")
struct ReproducibleRunTests {
    /// Runs one scenario on a fresh server; returns everything the control API shows of it.
    static func run(seed: UInt64) async throws -> [String] {
        let fixture = try SessionFixture(clock: .virtual) { configuration in
            configuration.randomSeed = seed
            configuration.clockStartMs = 1_900_000_000_000
        }
        var tokens: [String] = []
        for user in ["ann", "ben", "cat"] { tokens.append(try fixture.userToken(user)) }
        let ann = try await fixture.device("ann", token: tokens[0], uuid: "a")
        _ = try await fixture.device("ben", token: tokens[1], uuid: "b")
        ann.send(#"{"op":"send","id":"1","to":"cat","text":"hello"}"#)
        _ = await ann.next(op: "send.ok")
        // A fault whose choices are random: which of the two connections it drops.
        let fault = try fixture.control(
            "POST", "/_imock/faults", json: #"{"kind":"delay","app":"acme#chat","ms":1,"probability":0.5}"#)
        #expect(try fixture.control("POST", "/_imock/apps/acme/chat/kick", json: #"{"user":"ann","code":206}"#).status == 200)
        let secret = InProcessServer.adminSecret
        let outputs = [
            tokens.joined(separator: "\n"),
            try fixture.http.requestText("GET", "/_imock/export", token: secret),
            try fixture.http.requestText("GET", "/_imock/journal", token: secret),
            try fixture.http.requestText("GET", "/_imock/faults", token: secret),
            "\(fault.body["fault"]?["seed"] ?? .null)",
            try fixture.http.requestText("GET", "/_imock/apps/acme/chat/sessions", token: secret),
        ]
        await fixture.stop()
        return outputs
    }

    @Test("the same --seed-random gives the same export, journal, tokens and fault choices")
    func sameSeedSameRun() async throws {
        let first = try await Self.run(seed: 42)
        let second = try await Self.run(seed: 42)
        for (index, (a, b)) in zip(first, second).enumerated() { #expect(a == b, "output \(index) differs") }
        let other = try await Self.run(seed: 43)
        #expect(first[1] != other[1], "another seed makes other keys and ids")
    }
}
