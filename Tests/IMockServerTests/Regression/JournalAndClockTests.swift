import IMockCommon
import IMockServer
import IMockTestSupport
import Testing

/// The journal records every close the server sends, its query is checked like the event
/// stream's, a virtual clock fires timers that are already due, and `--seed-random` is listed
/// before the first fault.
@Suite("Journal, virtual-clock timers and the fault seed")
struct JournalAndClockTests {
    @Test("virtual clock: a token already past 80 % gets token.willExpire right after login.ok")
    func dueWarningAtLogin() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let token = try fixture.userToken("vic", ttl: 100)
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":90000}"#).status == 200)
        let device = try await fixture.device("vic", token: token, uuid: "v")
        let warning = await device.next()
        #expect(warning["op"]?.string == "token.willExpire", "\(warning)")
        await fixture.stop()
    }

    @Test("virtual clock: renewing with a token already past 80 % gets its warning at once")
    func dueWarningAtRenewal() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let device = try await fixture.device("ren", token: try fixture.userToken("ren", ttl: 3600), uuid: "r")
        let short = try fixture.userToken("ren", ttl: 100, register: false)
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":90000}"#).status == 200)
        device.send(#"{"op":"renewToken","id":"r","token":"\#(short)"}"#)
        #expect((await device.next(op: "renewToken.ok"))["op"]?.string == "renewToken.ok")
        #expect((await device.next())["op"]?.string == "token.willExpire")
        await fixture.stop()
    }

    @Test("an oversized message's close 1009 is in the journal")
    func oversizedMessageIsJournalled() async throws {
        let fixture = try SessionFixture { $0.maxWebSocketMessageBytes = 1024 }
        let device = try await fixture.device("big", token: try fixture.userToken("big"), uuid: "b")
        device.send(#"{"op":"ping","id":"\#(String(repeating: "p", count: 2000))"}"#)
        #expect((await device.next(op: "<closed>"))["code"]?.int == 1009)
        #expect(try await eventually { try fixture.journalEvents().contains("closed:1009") })
        let entry = try fixture.journal().last
        #expect(entry?["user"]?.string == "big", "the close names the session's user: \(String(describing: entry))")
        await fixture.stop()
    }

    @Test("an idle close 1001 is in the journal")
    func idleCloseIsJournalled() async throws {
        let fixture = try SessionFixture(clock: .virtual, sessionIdleTimeout: .seconds(1))
        let device = try await fixture.device("idle", token: try fixture.userToken("idle"), uuid: "i")
        #expect(try fixture.control("POST", "/_imock/clock/resume").status == 200)
        #expect((await device.next(op: "<closed>"))["code"]?.int == 1001)
        #expect(try await eventually { try fixture.journalEvents().contains("closed:1001") })
        await fixture.stop()
    }

    @Test(
        "the journal's query is checked: unknown app 404, malformed app or parameter 400",
        arguments: [
            ("/_imock/journal?app=nope%23x", 404), ("/_imock/journal?app=acme", 400), ("/_imock/journal?bogus=1", 400),
            ("/_imock/journal?sinceMs=soon", 400), ("/_imock/journal?sinceMs=9223372036854775807", 400),
            ("/_imock/journal?app=acme%23chat&sinceMs=0", 200),
            ("/_imock/journal?afterSeq=-1", 400), ("/_imock/journal?afterSeq=9007199254740992", 400),
            ("/_imock/journal?afterSeq=next", 400), ("/_imock/journal?afterSeq=9007199254740991&sinceMs=0", 200),
        ])
    func journalQuery(path: String, status: Int) async throws {
        let fixture = try SessionFixture()
        #expect(try fixture.control("GET", path).status == status)
        await fixture.stop()
    }

    @Test("with --seed-random the fault seed is listed before any fault exists")
    func seedListedBeforeFaults() async throws {
        let fixture = try SessionFixture { $0.randomSeed = 42 }
        let listing = try fixture.control("GET", "/_imock/faults")
        #expect(listing.body["seed"]?.string == "42", "\(listing)")
        await fixture.stop()
    }

    /// Polls `condition` (each poll is a loopback request) for a bounded real time.
    private func eventually(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<200 {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
