import IMockTestSupport
import Testing

/// "The same device" is its UUID and resource, whatever the token: a reconnect after a renewal
/// or an app restart replaces the live session under every Easemob policy. The old connection
/// is told as a kicked one is (`kicked` 206, close 4206: issue 22 — after a silent close 1000 the
/// reference client reconnected, and two instances of one device replaced each other forever),
/// but it is no policy kick: no kick in the journal, none counted.
@Suite("Same-device re-login over loopback")
struct SameDeviceReloginTests {
    static let policies = [
        #"{"vendor":"easemob"}"#,
        #"{"vendor":"easemob","keepCurrentDevice":true}"#,
        #"{"vendor":"easemob","mode":"singleDevice"}"#,
        #"{"vendor":"easemob","mode":"singleDevice","keepCurrentDevice":true}"#,
        #"{"vendor":"easemob","mode":"singleDevice","rule":"firstDeviceWins"}"#,
    ]

    @Test("renew, then the same device logs in again with the new token: replaced and told (206, close 4206), not kicked", arguments: policies)
    func reloginAfterRenewal(_ policy: String) async throws {
        let fixture = try SessionFixture()
        #expect(try fixture.control("POST", "/_imock/apps/acme/chat/settings", json: #"{"loginPolicy":\#(policy)}"#).status == 200)
        let first = try fixture.userToken("alice")
        let second = try fixture.userToken("alice", register: false)
        let old = try await fixture.device("alice", token: first, uuid: "a")
        old.send(#"{"op":"renewToken","id":"r","token":"\#(second)"}"#)
        #expect((await old.next(op: "renewToken.ok"))["op"]?.string == "renewToken.ok")
        _ = try await fixture.device("alice", token: second, uuid: "a", autoLogin: true)
        let told = await old.next()
        #expect(told["op"]?.string == "kicked" && told["code"]?.int == 206, "\(told)")
        let ended = await old.next()
        #expect(ended["op"]?.string == "<closed>" && ended["code"]?.int == 4206, "\(ended)")
        let events = try fixture.journalEvents()
        #expect(!events.contains("kicked:206") && events.contains("closed:4206"), "\(events)")
        await fixture.stop()
    }

    @Test("a freshly issued token (an app restart) from the same device also replaces, and is counted as no kick")
    func reloginWithFreshToken() async throws {
        let fixture = try SessionFixture()
        let old = try await fixture.device("bob", token: try fixture.userToken("bob"), uuid: "b")
        _ = try await fixture.device("bob", token: try fixture.userToken("bob", register: false), uuid: "b")
        #expect((await old.next())["code"]?.int == 206)
        let metrics = try fixture.http.requestText("GET", "/_imock/metrics", token: InProcessServer.adminSecret)
        #expect(!metrics.contains(#"imock_kicks_total{app="acme#chat",code="206"}"#), "\(metrics)")
        await fixture.stop()
    }
}
