import Testing
import IMockTestSupport

@Suite("Session lifecycle over loopback")
struct SessionLifecycleTests {
    @Test("on the system clock: token.willExpire at 80 % of a 6 s token, then token.expired and close 4108")
    func tokenExpiry() async throws {
        // Real time on purpose (the loop-timer path); the virtual-clock variant is in ClockControlTests.
        // 6 s leaves a loaded machine ample time to log in before the warning at 4.8 s.
        let fixture = try SessionFixture()
        let token = try fixture.userToken("tim", ttl: 6)
        let device = try await fixture.device("tim", token: token, uuid: "t")
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
        // Generous real-time margins: a loaded 2-core machine must still log both devices in
        // well within the timeout.
        let fixture = try SessionFixture(sessionIdleTimeout: .seconds(5))
        let token = try fixture.userToken("ida")
        let silent = try await fixture.device("ida", token: token, os: "ios", uuid: "silent")
        let chatty = try await fixture.device("ida", token: token, os: "android", uuid: "chatty")
        // The chatty device pings every 500 ms for 7 s; the silent one says nothing.
        for _ in 0..<14 {
            chatty.send(#"{"op":"ping","id":"k"}"#)
            #expect((await chatty.next(op: "pong"))["op"]?.string == "pong")
            try await Task.sleep(for: .milliseconds(500))
        }
        let closed = await silent.next(op: "<closed>")
        #expect(closed["code"]?.int == 1001, "\(closed)")
        chatty.send(#"{"op":"devices","id":"d"}"#)
        #expect((await chatty.next(op: "devices.ok"))["devices"]?.array?.count == 1)
        await fixture.stop()
    }
}
