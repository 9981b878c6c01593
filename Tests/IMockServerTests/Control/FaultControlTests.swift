import IMockCommon
import FoundationEssentials
import IMockNet
import Testing
import IMockServer
import IMockTestSupport

/// Every fault kind observed by a real client over a loopback socket.
@Suite("Control API: faults")
struct FaultControlTests {
    @Test("drop closes the connection without a close frame (1006) and is not kept")
    func drop() async throws {
        let fixture = try FaultFixture()
        let device = try await fixture.device("dan")
        let answer = try fixture.fault(#"{"kind":"drop","app":"acme#chat","user":"dan"}"#)
        #expect(answer.status == 200, "\(answer)")
        #expect(answer.body["affected"]?.array?.count == 1)
        #expect(answer.body["fault"]?["active"] == .bool(false))
        #expect((await device.next())["code"]?.int == 1006)
        #expect(try fixture.control("GET", "/_imock/faults").body["faults"]?.array?.isEmpty == true)
        await fixture.stop()
    }

    @Test("reset of one connection id closes it (RST); another connection stays")
    func reset() async throws {
        let fixture = try FaultFixture()
        let victim = try await fixture.device("rita")
        let bystander = try await fixture.device("bob")
        let id = try fixture.connectionID(of: "rita")
        #expect(try fixture.fault(#"{"kind":"reset","connection":\#(id)}"#).status == 200)
        let closed = await victim.next()
        #expect(closed["op"]?.string == "<closed>")
        #expect(closed["code"]?.int == 1006)
        bystander.send(#"{"op":"ping","id":"p"}"#)
        #expect((await bystander.next())["op"]?.string == "pong")
        await fixture.stop()
    }

    @Test("black-hole: no pong while the socket stays open; the held pong flows when it clears on the clock")
    func blackhole() async throws {
        let fixture = try FaultFixture(clock: .virtual)
        let device = try await fixture.device("bea")
        let answer = try fixture.fault(#"{"kind":"blackhole","app":"acme#chat","durationMs":5000}"#)
        #expect(answer.body["affected"]?.array?.count == 1)
        device.send(#"{"op":"ping","id":"p1"}"#)
        let pending = PendingFrame(device)
        try await Task.sleep(for: .milliseconds(300))
        #expect(!pending.hasArrived)
        #expect(try fixture.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array?.count == 1)
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":5000}"#).status == 200)
        let pong = await pending.task.value
        #expect(pong["op"]?.string == "pong" && pong["id"]?.string == "p1", "\(pong)")
        #expect(try fixture.control("GET", "/_imock/faults").body["faults"]?.array?.isEmpty == true)
        await fixture.stop()
    }

    @Test("delay holds every frame by N ms and keeps their order")
    func delay() async throws {
        let fixture = try FaultFixture()
        let device = try await fixture.device("dora")
        #expect(try fixture.fault(#"{"kind":"delay","app":"acme#chat","user":"dora","ms":250}"#).status == 200)
        let start = MonotonicInstant.now()
        device.send(#"{"op":"ping","id":"a"}"#)
        device.send(#"{"op":"devices","id":"b"}"#)
        device.send(#"{"op":"ping","id":"c"}"#)
        let frames = [await device.next(), await device.next(), await device.next()]
        let elapsedMs = (MonotonicInstant.now().nanoseconds - start.nanoseconds) / 1_000_000
        #expect(frames.map { $0["id"]?.string } == ["a", "b", "c"])
        #expect(frames.map { $0["op"]?.string } == ["pong", "devices.ok", "pong"])
        #expect(elapsedMs >= 250)
        await fixture.stop()
    }

    @Test("dropFrames N discards the next N frames, then ends")
    func dropFrames() async throws {
        let fixture = try FaultFixture()
        let device = try await fixture.device("fred")
        #expect(try fixture.fault(#"{"kind":"dropFrames","app":"acme#chat","count":2}"#).status == 200)
        for id in ["a", "b", "c"] { device.send(#"{"op":"ping","id":"\#(id)"}"#) }
        #expect((await device.next())["id"]?.string == "c")
        #expect(try fixture.control("GET", "/_imock/faults").body["faults"]?.array?.isEmpty == true)
        await fixture.stop()
    }

    @Test("noPong filters pong replies only")
    func noPong() async throws {
        let fixture = try FaultFixture()
        let device = try await fixture.device("nina")
        #expect(try fixture.fault(#"{"kind":"noPong","app":"acme#chat"}"#).status == 200)
        device.send(#"{"op":"ping","id":"p"}"#)
        device.send(#"{"op":"devices","id":"d"}"#)
        #expect((await device.next())["op"]?.string == "devices.ok")
        await fixture.stop()
    }

    @Test("holdLogin delays login.ok by N ms")
    func holdLogin() async throws {
        let fixture = try FaultFixture()
        #expect(try fixture.fault(#"{"kind":"holdLogin","app":"acme#chat","ms":300}"#).status == 200)
        let start = MonotonicInstant.now()
        let device = try await fixture.device("hal", waitForLogin: false)
        let reply = await device.next()
        let elapsedMs = (MonotonicInstant.now().nanoseconds - start.nanoseconds) / 1_000_000
        #expect(reply["op"]?.string == "login.ok")
        #expect(elapsedMs >= 300)
        await fixture.stop()
    }

    @Test("failUnbind: logout with unbinding fails with 212 and the session stays")
    func failUnbind() async throws {
        let fixture = try FaultFixture()
        let device = try await fixture.device("una")
        #expect(try fixture.fault(#"{"kind":"failUnbind","app":"acme#chat"}"#).status == 200)
        device.send(#"{"op":"logout","id":"l","unbindDeviceToken":true}"#)
        let reply = await device.next()
        #expect(reply["op"]?.string == "error" && reply["code"]?.int == 212, "\(reply)")
        #expect(try fixture.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array?.count == 1)
        await fixture.stop()
    }

    @Test("a fault on a device resource that has not logged in yet waits for its login and applies from then")
    func pendingResource() async throws {
        let fixture = try FaultFixture()
        #expect(try fixture.http.request("POST", "/acme/chat/users", json: #"{"username":"pia","password":"pw"}"#).status == 200)
        let answer = try fixture.fault(#"{"kind":"failUnbind","app":"acme#chat","user":"pia","resource":"ios_d1"}"#)
        #expect(answer.status == 200, "\(answer)")
        #expect(answer.body["affected"]?.array?.isEmpty == true, "\(answer)")
        let device = try await fixture.device("pia", uuid: "d1")
        let sessions = try fixture.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array ?? []
        #expect(sessions.first?["resource"]?.string == "ios_d1", "\(sessions)")
        device.send(#"{"op":"logout","id":"l","unbindDeviceToken":true}"#)
        let reply = await device.next()
        #expect(reply["op"]?.string == "error" && reply["code"]?.int == 212, "\(reply)")
        await fixture.stop()
    }

    @Test("failSync: the failing type's sync.finish carries an error, the others do not")
    func failSync() async throws {
        let fixture = try FaultFixture()
        #expect(try fixture.fault(#"{"kind":"failSync","app":"acme#chat","types":["contacts"]}"#).status == 200)
        let device = try await fixture.device("sam", sync: ["conversations", "contacts"])
        var finishes: [String: Bool] = [:]
        while finishes.count < 2 {
            let frame = await device.next(op: "sync.finish")
            guard let type = frame["type"]?.string else { break }
            finishes[type] = frame["error"] != nil
        }
        #expect(finishes == ["conversations": false, "contacts": true])
        await fixture.stop()
    }

    @Test("a fault on app A never affects app B")
    func appIsolation() async throws {
        let fixture = try FaultFixture()
        let inA = try await fixture.device("amy")
        let inB = try await fixture.device("amy", app: "other#chat")
        #expect(try fixture.fault(#"{"kind":"noPong","app":"acme#chat"}"#).status == 200)
        #expect(try fixture.fault(#"{"kind":"drop","app":"acme#chat","durationMs":60000}"#).status == 200)
        #expect((await inA.next())["code"]?.int == 1006)
        inB.send(#"{"op":"ping","id":"b"}"#)
        #expect((await inB.next())["op"]?.string == "pong")
        let listed = try fixture.control("GET", "/_imock/faults?app=other%23chat").body["faults"]?.array
        #expect(listed?.isEmpty == true)
        await fixture.stop()
    }

    @Test("a seeded probabilistic fault makes the same choices in two runs")
    func seededProbability() async throws {
        func run() async throws -> [String] {
            let fixture = try FaultFixture(seed: 42)
            let device = try await fixture.device("pia")
            #expect(try fixture.fault(#"{"kind":"noPong","app":"acme#chat","probability":0.5}"#).status == 200)
            for index in 0..<24 { device.send(#"{"op":"ping","id":"p\#(index)"}"#) }
            device.send(#"{"op":"devices","id":"end"}"#)
            var pongs: [String] = []
            while true {
                let frame = await device.next()
                if frame["op"]?.string != "pong" { break }
                pongs.append(frame["id"]?.string ?? "")
            }
            await fixture.stop()
            return pongs
        }
        let first = try await run()
        let second = try await run()
        #expect(first == second)
        #expect(!first.isEmpty && first.count < 24, "\(first)")
    }

    @Test("a duration clears the fault on the server clock; list and clear by id")
    func durationAndClearing() async throws {
        let fixture = try FaultFixture(clock: .virtual)
        let device = try await fixture.device("cleo")
        let made = try fixture.fault(#"{"kind":"noPong","app":"acme#chat","durationMs":1000}"#)
        let id = try #require(made.body["fault"]?["id"]?.int)
        let second = try #require(try fixture.fault(#"{"kind":"failUnbind","app":"acme#chat"}"#).body["fault"]?["id"]?.int)
        #expect(try fixture.control("GET", "/_imock/faults").body["faults"]?.array?.count == 2)
        #expect(try fixture.control("DELETE", "/_imock/faults/\(second)").status == 200)
        #expect(try fixture.control("DELETE", "/_imock/faults/\(second)").status == 404)
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":999}"#).status == 200)
        #expect(try fixture.control("GET", "/_imock/faults").body["faults"]?.array?.first?["id"]?.int == id)
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":1}"#).status == 200)
        #expect(try fixture.control("GET", "/_imock/faults").body["faults"]?.array?.isEmpty == true)
        device.send(#"{"op":"ping","id":"p"}"#)
        #expect((await device.next())["op"]?.string == "pong")
        _ = try fixture.fault(#"{"kind":"noPong","app":"acme#chat"}"#)
        #expect(try fixture.control("DELETE", "/_imock/faults").body["cleared"]?.array?.count == 1)
        await fixture.stop()
    }

    @Test("under --clock virtual a delay holds frames until the server clock reaches their time")
    func delayOnTheVirtualClock() async throws {
        let fixture = try FaultFixture(clock: .virtual)
        let device = try await fixture.device("vera")
        #expect(try fixture.fault(#"{"kind":"delay","app":"acme#chat","ms":5000}"#).status == 200)
        device.send(#"{"op":"ping","id":"held"}"#)
        try await eventuallyApplied(fixture, count: 1)
        let pending = PendingFrame(device)
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":4999}"#).status == 200)
        #expect(!pending.hasArrived, "one millisecond short")
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":1}"#).status == 200)
        let pong = await pending.task.value
        #expect(pong["op"]?.string == "pong" && pong["id"]?.string == "held", "\(pong)")
        await fixture.stop()
    }

    @Test("a fault with a trigger is listed with it and waits: afterFrames 1 lets one pong through, then discards")
    func triggerIsListedAndWaits() async throws {
        let fixture = try FaultFixture()
        let device = try await fixture.device("tia")
        let answer = try fixture.fault(#"{"kind":"dropFrames","count":1,"app":"acme#chat","user":"tia","afterFrames":1}"#)
        #expect(answer.status == 200, "\(answer)")
        #expect(answer.body["fault"]?["afterFrames"]?.int == 1)
        for id in ["a", "b", "c"] { device.send(#"{"op":"ping","id":"\#(id)"}"#) }
        #expect((await device.next())["id"]?.string == "a")
        #expect((await device.next())["id"]?.string == "c", "the second frame was discarded")
        let on = try fixture.fault(#"{"kind":"noPong","app":"acme#chat","on":"push"}"#)
        #expect(on.body["fault"]?["on"]?.string == "push")
        await fixture.stop()
    }

    @Test("limitData closes the connection at the frame that would pass the limit: downstream the server's, upstream the client's")
    func limitData() async throws {
        let fixture = try FaultFixture()
        let down = try await fixture.device("lou")
        let answer = try fixture.fault(#"{"kind":"limitData","app":"acme#chat","user":"lou","bytes":100}"#)
        #expect(answer.body["fault"]?["bytes"]?.int == 100 && answer.body["fault"]?["direction"]?.string == "downstream")
        for number in 0..<10 { down.send(#"{"op":"ping","id":"p\#(number)"}"#) }
        var pongs = 0
        var frame = await down.next()
        while frame["op"]?.string == "pong" {
            pongs += 1
            frame = await down.next()
        }
        #expect(pongs >= 1 && pongs < 10, "\(pongs)")
        #expect(frame["op"]?.string == "<closed>" && frame["code"]?.int == 1006, "\(frame)")

        let up = try await fixture.device("uma")
        #expect(try fixture.fault(#"{"kind":"limitData","app":"acme#chat","user":"uma","bytes":50,"direction":"upstream"}"#).status == 200)
        for id in ["a", "b", "c"] { up.send(#"{"op":"ping","id":"\#(id)"}"#) }  // 22 bytes each: the third passes 50
        let frames = [await up.next(), await up.next(), await up.next()]
        #expect(frames.map { $0["id"]?.string } == ["a", "b", nil])
        #expect(frames.last?["code"]?.int == 1006, "\(frames)")
        await fixture.stop()
    }

    /// Waits until the first active fault applied `count` times.
    private func eventuallyApplied(_ fixture: FaultFixture, count: Int) async throws {
        for _ in 0..<500 {
            let faults = try fixture.control("GET", "/_imock/faults").body["faults"]?.array ?? []
            if faults.first?["applied"]?.int == count { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the fault never applied \(count) times")
    }

    @Test(
        "bad fault calls get a clear error naming the field and change nothing",
        arguments: [
            (#"{"app":"acme#chat"}"#, 400, "'kind'"),
            (#"{"kind":"flood","app":"acme#chat"}"#, 400, "'kind'"),
            (#"{"kind":"delay","app":"acme#chat"}"#, 400, "'ms'"),
            (#"{"kind":"delay","app":"acme#chat","ms":0}"#, 400, "'ms'"),
            (#"{"kind":"dropFrames","app":"acme#chat","count":"2"}"#, 400, "'count'"),
            (#"{"kind":"failSync","app":"acme#chat","types":["mail"]}"#, 400, "'types[0]'"),
            (#"{"kind":"failSync","app":"acme#chat","types":[]}"#, 400, "'types'"),
            (#"{"kind":"noPong","app":"acme#chat","probability":1.5}"#, 400, "'probability'"),
            (#"{"kind":"noPong","app":"acme#chat","durationMs":0}"#, 400, "'durationMs'"),
            (#"{"kind":"noPong","app":"acme#chat","ms":5}"#, 400, "'ms'"),
            (#"{"kind":"noPong"}"#, 400, "'app'"),
            (#"{"kind":"noPong","app":"acme"}"#, 400, "'app'"),
            (#"{"kind":"noPong","app":"acme#chat","resource":"ios_x"}"#, 400, "'resource'"),
            (#"{"kind":"noPong","app":"acme#chat","connection":1}"#, 400, "'connection'"),
            (#"{"kind":"noPong","app":"nope#none"}"#, 404, "nope#none"),
            (#"{"kind":"noPong","app":"acme#chat","user":"ghost"}"#, 404, "ghost"),
            (#"{"kind":"noPong","app":"acme#chat","user":"vic","resource":""}"#, 400, "'resource'"),
            (#"{"kind":"noPong","connection":999999}"#, 404, "999999"),
            ("{broken", 400, "JSON"),
            (#"{"kind":"limitData","app":"acme#chat"}"#, 400, "'bytes'"),
            (#"{"kind":"limitData","app":"acme#chat","bytes":0}"#, 400, "'bytes'"),
            (#"{"kind":"limitData","app":"acme#chat","bytes":10,"direction":"sideways"}"#, 400, "'direction'"),
            (#"{"kind":"delay","app":"acme#chat","ms":5,"direction":"upstream"}"#, 400, "'direction' upstream"),
            (#"{"kind":"delay","app":"acme#chat","ms":5,"jitterMs":-1}"#, 400, "'jitterMs'"),
            (#"{"kind":"noPong","app":"acme#chat","direction":"downstream"}"#, 400, "'direction'"),
            (#"{"kind":"slicer","app":"acme#chat"}"#, 400, "'bytes'"),
            (#"{"kind":"slicer","app":"acme#chat","bytes":3,"delayMs":10001}"#, 400, "'delayMs'"),
            (#"{"kind":"slicer","app":"acme#chat","bytes":3,"direction":"upstream"}"#, 400, "'direction' upstream"),
            (#"{"kind":"bandwidth","app":"acme#chat","bytesPerSecond":0}"#, 400, "'bytesPerSecond'"),
            (#"{"kind":"bandwidth","app":"acme#chat","bytesPerSecond":100,"direction":"upstream"}"#, 400, "'direction' upstream"),
            (#"{"kind":"drop","app":"acme#chat","on":"handshake"}"#, 400, "'on'"),
            (#"{"kind":"drop","app":"acme#chat","on":5}"#, 400, "'on'"),
            (#"{"kind":"drop","app":"acme#chat","afterFrames":-1}"#, 400, "'afterFrames'"),
            (#"{"kind":"drop","app":"acme#chat","afterFrames":1000001}"#, 400, "'afterFrames'"),
            (#"{"kind":"drop","app":"acme#chat","afterFrames":"3"}"#, 400, "'afterFrames'"),
            (#"{"kind":"drop","app":"acme#chat","afterFrames":1,"on":"push"}"#, 400, "'afterFrames' or 'on'"),
            (#"{"kind":"failUnbind","app":"acme#chat","on":"push"}"#, 400, "'failUnbind'"),
            (#"{"kind":"failSync","app":"acme#chat","types":["contacts"],"afterFrames":2}"#, 400, "'failSync'"),
        ] as [(String, Int, String)])
    func badCalls(body: String, status: Int, mentions: String) async throws {
        let fixture = try FaultFixture()
        _ = try await fixture.device("vic")
        let answer = try fixture.fault(body)
        #expect(answer.status == status, "\(answer)")
        let description = answer.body["error_description"]?.string ?? ""
        #expect(description.contains(mentions), "\(description)")
        #expect(try fixture.control("GET", "/_imock/faults").body["faults"]?.array?.isEmpty == true)
        await fixture.stop()
    }

    @Test("clearing a fault by a malformed or unknown id, and calls without the secret")
    func badClears() async throws {
        let fixture = try FaultFixture()
        #expect(try fixture.control("DELETE", "/_imock/faults/abc").status == 400)
        #expect(try fixture.control("DELETE", "/_imock/faults/77").status == 404)
        #expect(try fixture.control("GET", "/_imock/faults?app=zz").status == 400)
        let anonymous = try fixture.http.request("POST", "/_imock/faults", json: #"{"kind":"noPong","app":"acme#chat"}"#)
        #expect(anonymous.status == 401)
        #expect(try fixture.control("GET", "/_imock/faults").body["faults"]?.array?.isEmpty == true)
        await fixture.stop()
    }
}
