import IMockCommon
import Testing
import IMockNet
import IMockServer
import IMockTestSupport

@Suite("Session lifecycle over loopback")
struct SessionLifecycleTests {
    @Test("on a flowing clock: token.willExpire at 80 % of a 3 s token, then token.expired and close 4108")
    func tokenExpiry() async throws {
        // Time flows (the loop-timer path; the jump-only variant is in ClockControlTests), but
        // only from the moment the device is logged in: the clock starts frozen, so however
        // long a loaded machine takes to mint the token and log in, the token is still fresh.
        let fixture = try SessionFixture(clock: .virtual)
        let token = try fixture.userToken("tim", ttl: 3)
        let device = try await fixture.device("tim", token: token, uuid: "t")
        #expect(try fixture.control("POST", "/_imock/clock/resume").status == 200)
        let warning = await device.next(op: "token.willExpire")
        #expect(warning["op"]?.string == "token.willExpire")
        let expired = await device.next(op: "token.expired")
        #expect(expired["op"]?.string == "token.expired")
        #expect((await device.next(op: "<closed>"))["code"]?.int == 4108)
        await fixture.stop()
    }

    @Test("1,000 offline messages arrive once each, in order, across a disconnect in the middle")
    func offlineMessages() async throws {
        let fixture = try SessionFixture()
        let senderToken = try fixture.userToken("sender")
        let receiverToken = try fixture.userToken("receiver")
        let sender = try await fixture.device("sender", token: senderToken, uuid: "s")
        for index in 0..<1000 {
            sender.send(#"{"op":"send","id":"\#(index)","to":"receiver","text":"m\#(index)"}"#)
        }
        // Every send is acknowledged, so all 1,000 are queued before the receiver logs in.
        for _ in 0..<1000 { _ = await sender.next(op: "send.ok") }

        // First login: read and ack 400 messages, then drop the connection mid-sync.
        let first = try await ProtocolClient.connect(loop: fixture.clientLoop, port: fixture.server.port)
        first.login(app: SessionFixture.app, user: "receiver", token: receiverToken, uuid: "r")
        #expect((await first.next(op: "login.ok"))["op"]?.string == "login.ok")
        let start = await first.next(op: "offline.start")
        #expect(start["count"]?.int == 1000)
        var received: [String] = []
        for _ in 0..<400 {
            let message = await first.next(op: "message")
            received.append(message["text"]?.string ?? "?")
            first.send(#"{"op":"ack","id":"a","messageId":"\#(message["messageId"]?.string ?? "")"}"#)
        }
        first.socket.close(code: 1000)
        _ = await first.next(op: "<closed>")

        // Second login gets exactly the 600 it had not acknowledged, in order.
        let second = try await ProtocolClient.connect(loop: fixture.clientLoop, port: fixture.server.port)
        second.login(app: SessionFixture.app, user: "receiver", token: receiverToken, uuid: "r")
        let restart = await second.next(op: "offline.start")
        #expect(restart["count"]?.int == 600)
        while true {
            let frame = await second.next()
            let op = frame["op"]?.string
            if op == "message" {
                received.append(frame["text"]?.string ?? "?")
                second.send(#"{"op":"ack","id":"a","messageId":"\#(frame["messageId"]?.string ?? "")"}"#)
            } else if op == "offline.finish" || op?.hasPrefix("<") == true {
                break
            }
        }
        let expected = (0..<1000).map { "m\($0)" }
        #expect(received.count == expected.count)
        let firstDifference = received.indices.first { $0 < expected.count && received[$0] != expected[$0] }
        #expect(firstDifference == nil, "first difference at \(firstDifference ?? -1)")
        await fixture.stop()
    }

    @Test("a /ws connection silent for the idle timeout is closed with 1001; one that pings is not")
    func idleTimeout() async throws {
        // The clock starts frozen and flows only once both devices are logged in, so a loaded
        // machine cannot idle a device out before the test begins.
        let fixture = try SessionFixture(clock: .virtual, sessionIdleTimeout: .seconds(3))
        let token = try fixture.userToken("ida")
        let silent = try await fixture.device("ida", token: token, os: "ios", uuid: "silent")
        let chatty = try await fixture.device("ida", token: token, os: "android", uuid: "chatty")
        // The chatty device pings every 200 ms from the client's event-loop thread (not from
        // this task, which a busy test run can hold back for seconds); the silent one says nothing.
        let pinger = LoopPinger(loop: fixture.clientLoop, client: chatty)
        pinger.start()
        #expect(try fixture.control("POST", "/_imock/clock/resume").status == 200)
        let closed = await silent.next(op: "<closed>")
        #expect(closed["code"]?.int == 1001, "\(closed)")
        // Time stops before the pings do: a busy test run may hold this task back for seconds
        // between the two, and the chatty device must not fall silent on a flowing clock.
        #expect(try fixture.control("POST", "/_imock/clock/freeze").status == 200)
        await pinger.stop()
        chatty.send(#"{"op":"devices","id":"d"}"#)
        var reply = await chatty.next()
        while reply["op"]?.string == "pong" { reply = await chatty.next() }
        #expect(reply["op"]?.string == "devices.ok" && reply["devices"]?.array?.count == 1, "\(reply)")
        await fixture.stop()
    }
}

/// Sends a `ping` op every 200 ms from the event loop's own thread until stopped.
private final class LoopPinger: @unchecked Sendable {
    private let loop: EventLoop
    private let client: ProtocolClient
    /// Loop-confined.
    private var stopped = false

    init(loop: EventLoop, client: ProtocolClient) {
        self.loop = loop
        self.client = client
    }

    func start() { loop.execute { self.tick() } }

    /// Stops the pings; returns once no more will be sent.
    func stop() async { _ = try? await loop.submit { self.stopped = true } }

    private func tick() {
        guard !stopped else { return }
        client.send(#"{"op":"ping","id":"k"}"#)
        loop.scheduleTimer(after: .milliseconds(200)) { self.tick() }
    }
}
