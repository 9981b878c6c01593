@testable import IMockBench
import IMockCore
import IMockWire
import Testing

/// The load side's dialects: what they send is what the server's codecs read, and a server
/// message they cannot read is a `malformed` event (the device gives up), never ignored.
@Suite("imock bench: wires")
struct BenchWireTests {
    private let login = BenchLogin(appKey: "bench#im", user: "u1", token: "YWMtabc", deviceUUID: "d-u1", os: "ios")

    @Test("imock JSON: templates the server parses; unreadable frames are malformed")
    func imockJSON() throws {
        var wire = ImockJSONBenchWire()
        #expect(wire.upgrade(for: login).path == "/ws")
        let output = wire.login(login)
        guard case .text(let text)? = output.send.first, output.send.count == 1 else {
            Issue.record("login: \(output.send)")
            return
        }
        guard case .login(_, let request) = try ClientFrameParser.parse(text) else {
            Issue.record("not a login: \(text)")
            return
        }
        #expect(request.appKey == "bench#im" && request.user == "u1" && request.token == "YWMtabc")
        #expect(wire.receive(.text(#"{"op":"login.ok","id":"1","resource":"ios_d-u1"}"#)).events == [.loginAccepted])
        #expect(wire.receive(.text(#"{"op":"message","messageId":"7","from":"a","to":"u1","text":"hi"}"#)).events
            == [.message(id: "7", text: "hi")])
        #expect(wire.receive(.text(#"{"op":"sync.start","type":"contacts"}"#)).events == [.other])
        guard case .malformed = wire.receive(.text("not json")).events.first else { Issue.record("text"); return }
        guard case .malformed = wire.receive(.binary([1, 2])).events.first else { Issue.record("binary"); return }
    }

    @Test("msync: a PROVISION with the token at /websocket, UNREAD pings; an unreadable message is malformed")
    func msync() throws {
        var wire = MsyncBenchWire()
        #expect(wire.upgrade(for: login).path == MsyncDialect.path)
        let output = wire.login(login)
        #expect(output.events.isEmpty)
        let provision = try MsyncEnvelope.read(try #require(output.send.first)).0
        #expect(provision.command == .provision)
        #expect(provision.auth == MsyncProvision.tokenPrefix + "YWMtabc")
        #expect(try MsyncEnvelope.read(try #require(wire.ping().send.first)).0.command == .unread)
        guard case .malformed = wire.receive(.binary([0xFF, 0xFF, 0xFF])).events.first else {
            Issue.record("garbage was not malformed")
            return
        }
        // msync confirms offline messages by page keys: an ack is answered on the device.
        #expect(wire.ack("5") == BenchWireOutput(events: [.acked]))
    }

    @Test("OpenIM: the login is the upgrade's query; the first text frame answers it")
    func openIM() {
        var wire = OpenIMBenchWire()
        let path = wire.upgrade(for: login).path
        #expect(path.hasPrefix("/openim/bench/im?"), "\(path)")
        #expect(path.contains("token=YWMtabc") && path.contains("sendID=u1") && path.contains("platformID=1"), "\(path)")
        #expect(wire.login(login).send.isEmpty)
        let answer = wire.receive(.text(#"{"errCode":0,"errMsg":"","errDlt":""}"#))
        #expect(answer.events == [.loginAccepted])
        #expect(answer.send.count == 1, "asks for the newest seqs")
        #expect(wire.receive(.text(#"{"errCode":0}"#)).events.allSatisfy { if case .malformed = $0 { true } else { false } })
    }

    @Test("every dialect is listed once, the baseline speaks only imock JSON, OpenIM apps get OpenIM's policy")
    func catalogue() {
        #expect(BenchWires.all.map { $0.name } == ["imock-json", "msync", "openim"])
        #expect(BenchWires.all.filter { $0.baselineSpeaks }.map { $0.name } == ["imock-json"])
        let world = BenchWorld(apps: [("bench#im", 4, ["u1"])], vendor: OpenIMBenchWire.vendor)
        #expect(world.app("bench#im").loginPolicy["vendor"]?.stringValue == "openim")
        #expect(BenchWorld(apps: [("bench#im", 4, ["u1"])]).app("bench#im").loginPolicy["vendor"]?.stringValue == "easemob")
    }
}
