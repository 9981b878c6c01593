import IMockServer
import IMockTestSupport
import Testing

/// A `/ws` client that does not read cannot make the server queue without bound: past
/// `--max-ws-output-bytes` its connection closes with 1008, journalled, and the messages it had
/// not taken go back to the offline queue (nothing lost).
@Suite("Output limit for clients that do not read")
struct OutputLimitTests {
    @Test("a device that never reads is closed with 1008; every message reaches it at its next login")
    func nonReaderIsClosedAndLosesNothing() async throws {
        // The stalled reader says nothing after its login: on a loaded machine the 5 MB below
        // took longer than the server's default idle timeout (the fixture's is patient).
        let fixture = try SessionFixture { $0.maxWebSocketOutputBytes = 65_536 }
        let senderToken = try fixture.userToken("sender")
        let readerToken = try fixture.userToken("reader")
        // The reader logs in over a raw socket with a tiny receive window, then stops reading.
        let stalled = try RawWebSocketClient(port: fixture.server.port, receiveBufferBytes: 4096)
        try stalled.send(
            text: #"{"op":"login","id":"l","appKey":"acme#chat","user":"reader","token":"\#(readerToken)","device":{"os":"ios","uuid":"stall"}}"#)
        #expect(try await eventuallyLoggedIn(fixture, user: "reader"))
        let sender = try await fixture.device("sender", token: senderToken, uuid: "s")
        let text = String(repeating: "x", count: 5000)
        // 5 MB: beyond what the kernel buffers for the stalled reader (about 2.8 MB on loopback)
        // and the 64 KiB limit; what comes back at the next login (about 2 MB) is written in one
        // go and fits the socket's buffers, so the reading client is not itself closed with 1008
        // however late the test's loop gets to read it (the limit counts what the socket did not
        // take; see docs/PROTOCOL.md on the offline sync).
        let count = 1000
        for index in 0..<count { sender.send(#"{"op":"send","id":"\#(index)","to":"reader","text":"\#(text)"}"#) }
        for _ in 0..<count { _ = await sender.next(op: "send.ok") }

        let events = try fixture.journalEvents()
        #expect(events.contains("closed:1008"), "\(events)")
        // The reader's next login gets every message it had not received, none twice.
        let again = try await ProtocolClient.connect(loop: fixture.clientLoop, port: fixture.server.port)
        again.login(app: SessionFixture.app, user: "reader", token: readerToken, uuid: "stall")
        #expect((await again.next(op: "login.ok"))["op"]?.string == "login.ok")
        let start = await again.next(op: "offline.start")
        let queued = try #require(start["count"]?.int, "\(start)")
        #expect(queued > 0 && queued <= count)
        var ids: [String] = []
        while true {
            let frame = await again.next()
            guard frame["op"]?.string == "message" else { break }
            ids.append(frame["messageId"]?.string ?? "?")
        }
        #expect(ids.count == queued)
        #expect(Set(ids).count == ids.count, "no message twice in the queue")
        // The messages taken before the stall, plus the requeued ones, cover all that was sent:
        // the requeued ones are the last `queued`, in order.
        let numbers = ids.compactMap(Int.init)
        #expect(numbers == numbers.sorted())
        #expect(numbers.last == numbers.first.map { $0 + queued - 1 }, "a contiguous tail: \(numbers.prefix(3))…")
        await fixture.stop()
    }

    private func eventuallyLoggedIn(_ fixture: SessionFixture, user: String) async throws -> Bool {
        for _ in 0..<200 {
            let sessions = try fixture.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array ?? []
            if sessions.contains(where: { $0["user"]?.string == user }) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
