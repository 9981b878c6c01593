import Foundation
import IMockCommon
import IMockCore
import IMockHarness
import IMockServer
import IMockTestSupport
import Testing

@testable import imock

@Suite("imock record export")
struct RecordCommandTests {
    /// A small valid recording: one device logs in and is kicked.
    static let valid = #"""
        {"format": "imock-recording/1", "app": "acme#chat", "startedAtMs": 1000, "stoppedAtMs": 5000, "recording": false,
         "truncated": false, "eventLimit": 20000,
         "seed": {"version": 1, "apps": [{"appKey": "acme#chat", "registrationMode": "open", "loginPolicy": {"vendor": "easemob"},
                  "users": [{"username": "ann", "activated": true}]}]},
         "events": [
          {"atMs": 1000, "seq": 1, "in": "login", "user": "ann", "device": {"platform": "ios", "uuid": "u1", "name": "Ann", "extension": ""},
           "autoLogin": false, "sync": [], "credential": {"kind": "user", "user": "ann"}, "connection": 1, "dialect": "imock"},
          {"atMs": 1000, "seq": 2, "out": "journal", "user": "ann", "resource": "ios_u1", "event": {"type": "frame", "frame": {"op": "login.ok", "id": "1"}}, "connection": 1},
          {"atMs": 4000, "seq": 3, "in": "control", "method": "POST", "path": "apps/acme/chat/kick", "query": {}, "body": {"user": "ann", "code": 217}, "status": 200},
          {"atMs": 4000, "seq": 4, "out": "journal", "user": "ann", "resource": "ios_u1", "event": {"type": "frame", "frame": {"op": "kicked", "code": 217}}, "connection": 1},
          {"atMs": 4000, "seq": 5, "out": "journal", "user": "ann", "resource": "ios_u1", "event": {"type": "closed", "code": 4217, "reason": "x"}, "connection": 1}]}
        """#

    func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "imock-recording-" + UUID().uuidString + ".json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a valid recording exports a fixture that parses, with its waits and sent checks")
    func exports() throws {
        let reader = try RecordingReader(bytes: Array(Self.valid.utf8))
        let fixture = try RecordingExport.fixture(reader).fixture
        let parsed = try FixtureParser.parse(fixture.encoded(), file: "exported.json")
        #expect(parsed.devices.map(\.name) == ["ios"])
        let steps = fixture["steps"]?.arrayValue ?? []
        #expect(steps.map { $0.objectValue?.first?.key ?? "" } == ["do", "expect", "advance", "control", "expect", "advance"])
        #expect(steps[2]["advance"] == .string("3s"))
        #expect(steps[5]["advance"] == .string("1s"), "the session lasts until the recording stopped")
        #expect(steps[4]["frames"]?.arrayValue?.count == 2)
        #expect(RecordCommand.run(["export", "--input", try file(Self.valid)], environment: [:]) == 0)
    }

    @Test("--to, --devices and --drop-pings keep less")
    func options() throws {
        let ping = #"{"atMs": 2000, "seq": 9, "in": "ping", "connection": 1, "dialect": "imock"},"#
        let text = Self.valid.replacingOccurrences(of: #"{"atMs": 4000, "seq": 3,"#, with: ping + #"{"atMs": 4000, "seq": 3,"#)
        let reader = try RecordingReader(bytes: Array(text.utf8))
        func steps(_ change: (inout RecordingExportOptions) -> Void) throws -> [String] {
            var options = RecordingExportOptions()
            change(&options)
            let steps = try RecordingExport.fixture(reader, options: options).fixture["steps"]?.arrayValue ?? []
            return steps.map { step in step["advance"]?.stringValue.map { "advance " + $0 } ?? step.objectValue?.first?.key ?? "" }
        }
        #expect(try steps { _ in } == ["do", "expect", "advance 1s", "advance 2s", "control", "expect", "advance 1s"])
        #expect(try steps { $0.dropPings = true } == ["do", "expect", "advance 3s", "control", "expect", "advance 1s"])
        #expect(try steps { $0.toMs = 2000 } == ["do", "expect", "advance 1s"])
        let none = try RecordingExport.fixture(reader, options: { var options = RecordingExportOptions(); options.devices = ["bob"]; return options }())
        #expect(none.fixture["devices"]?.arrayValue?.isEmpty == true)
        let kept = try RecordingExport.fixture(reader, options: { var options = RecordingExportOptions(); options.devices = ["ios_u1"]; return options }())
        #expect(kept.fixture["devices"]?.arrayValue?.count == 1)
    }

    @Test("imock serve --record takes app keys, each once")
    func serveRecord() throws {
        #expect(try ServeOptions.parse(["--record", "acme#chat", "--record", "acme#other"]).recordedApps == ["acme#chat", "acme#other"])
        #expect(throws: UsageError.self) { try ServeOptions.parse(["--record", "nokey"]) }
        #expect(throws: UsageError.self) { try ServeOptions.parse(["--record", "acme#chat", "--record", "acme#chat"]) }
    }

    @Test("bad and cut recordings exit 65 with the path of the problem", arguments: [
        ("", ""), ("{\"format\": \"imock-recording/1\", \"app\"", ""), ("[]", ""), ("{}", "format"),
        (#"{"format": "imock-recording/9"}"#, "format"),
        (#"{"format": "imock-recording/1", "app": "x", "startedAtMs": 1}"#, "app"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 1, "seed": {}, "events": []}"#, "seed.apps"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 1, "seed": {"apps": [{}]}, "events": {}}"#, "events"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 1, "seed": {"apps": [{}]}, "events": [{"in": "ping"}]}"#, "events[0].atMs"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 5, "seed": {"apps": [{}]}, "events": [{"atMs": 4, "in": "ping", "connection": 1}]}"#, "events[0].atMs"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 1, "seed": {"apps": [{}]}, "events": [{"atMs": 4, "what": 1}]}"#, "events[0]"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 1, "seed": {"apps": [{}]}, "events": [{"atMs": 4, "in": "login", "connection": 1}]}"#, "events[0]"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": -9223372036854775807, "seed": {"apps": [{}]}, "events": []}"#, "startedAtMs"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 5, "stoppedAtMs": 4, "seed": {"apps": [{}]}, "events": []}"#, "stoppedAtMs"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 1, "seed": {"apps": [{}]}, "events": [{"atMs": 9223372036854775807, "in": "ping", "connection": 1}]}"#, "events[0].atMs"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 1, "seed": {"apps": [{}]}, "events": [{"atMs": 4, "in": "sdk"}]}"#, "events[0].call"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 1, "seed": {"apps": [{}]}, "events": [{"atMs": 4, "in": "sdk", "call": {"do": "login"}, "user": "ann"}]}"#, "events[0].device"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 1, "seed": {"apps": [{}]}, "events": [{"atMs": 4, "in": "sdk", "call": {"dance": 1}}]}"#, "events[0].call"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 1, "seed": {"apps": [{}]}, "events": [{"atMs": 4, "in": "sdk", "instance": 0, "call": {"do": "init"}, "user": "a", "device": {"platform": "ios", "uuid": "u"}}]}"#, "events[0].instance"),
        (#"{"format": "imock-recording/1", "app": "a#b", "startedAtMs": 1, "seed": {"apps": [{}]}, "events": [{"atMs": 4, "in": "sdk", "instance": 9223372036854775807, "call": {"do": "init"}, "user": "a", "device": {"platform": "ios", "uuid": "u"}}]}"#, "events[0].instance"),
    ])
    func refused(text: String, path: String) throws {
        do {
            let reader = try RecordingReader(bytes: Array(text.utf8))
            _ = try RecordingExport.fixture(reader)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.path == path, "\(text): \(error)")
        }
        #expect(RecordCommand.run(["export", "--input", try file(text)], environment: [:]) == 65)
    }

    @Test("a cut copy of a valid recording exits 65 at every length")
    func everyCut() throws {
        let bytes = Array(Self.valid.utf8)
        for length in stride(from: 0, to: bytes.count, by: 37) {
            #expect(throws: RecordingError.self) { try RecordingReader(bytes: Array(bytes.prefix(length))) }
        }
    }

    /// A recording of each kind of event: an SDK call, two instances of one device, a
    /// reconnect, a close, callbacks.
    static let rich = #"""
        {"format": "imock-recording/1", "app": "acme#chat", "startedAtMs": 1000, "stoppedAtMs": 9000,
         "seed": {"version": 1, "apps": [{"appKey": "acme#chat", "users": [{"username": "ann"}]}]},
         "events": [
          {"atMs": 1000, "in": "sdk", "call": {"issueToken": "t", "user": "ann", "ttl": "1h"}},
          {"atMs": 1000, "in": "sdk", "resource": "web_b", "user": "ann", "device": {"platform": "web", "uuid": "b", "name": "tab"}, "call": {"do": "login", "token": {"name": "t"}}},
          {"atMs": 1000, "in": "login", "user": "ann", "device": {"platform": "web", "uuid": "b", "name": "tab", "extension": ""}, "autoLogin": false, "sync": ["contacts"], "credential": {"kind": "user", "user": "ann"}, "connection": 1, "dialect": "msync"},
          {"atMs": 1000, "out": "journal", "user": "ann", "resource": "web_b", "event": {"type": "frame", "frame": {"op": "login.ok"}}, "connection": 1},
          {"atMs": 2000, "in": "sdk", "resource": "web_b", "user": "ann", "instance": 2, "device": {"platform": "web", "uuid": "b", "name": "tab"}, "call": {"do": "login"}},
          {"atMs": 2000, "in": "login", "user": "ann", "device": {"platform": "web", "uuid": "b", "name": "tab", "extension": ""}, "autoLogin": false, "sync": [], "credential": {"kind": "refused", "reason": "expired"}, "connection": 2, "dialect": "imock"},
          {"atMs": 2000, "out": "journal", "user": "ann", "resource": "web_b", "event": {"type": "closed", "code": 4206}, "connection": 1},
          {"atMs": 2000, "in": "disconnected", "connection": 1},
          {"atMs": 3000, "in": "control", "method": "POST", "path": "faults", "body": {"kind": "drop", "app": "acme#chat", "resource": "web_b", "durationMs": 10}, "status": 200},
          {"atMs": 3000, "in": "disconnected", "connection": 2},
          {"atMs": 4000, "in": "login", "user": "ann", "device": {"platform": "web", "uuid": "b", "name": "tab", "extension": ""}, "autoLogin": true, "sync": [], "credential": {"kind": "user", "user": "ann"}, "connection": 3, "dialect": "imock"},
          {"atMs": 4000, "in": "disconnected", "connection": 3},
          {"atMs": 4000, "out": "journal", "user": "ann", "resource": "web_b", "event": {"type": "frame", "frame": {"op": "login.ok"}}, "connection": 3},
          {"atMs": 5000, "in": "rest", "api": "easemob", "method": "PUT", "path": "users/ann/password", "query": {"a": "b"}, "credential": {"kind": "app"}, "body": {"newpassword": "<redacted>"}, "status": 200},
          {"atMs": 6000, "out": "callbacks", "callbacks": [{"resource": "web_b", "name": "loginCompletion", "profile": "easemob"}, {"resource": "web_b", "name": "x", "instance": 2}]}]}
        """#

    @Test("a recording of every kind of event with any one member changed to any kind of value exports or exits 65, never crashes")
    func anyMemberChanged() throws {
        let document = try JSONValue.parse(Array(Self.rich.utf8))
        _ = try RecordingExport.fixture(try RecordingReader(document))
        let values: [JSONValue] = [.null, .int(-1), .int(0), .int(3), .int(.min), .int(.max), .string(""), .string("web_b"), [], [:], .bool(true), .double(1.5)]
        var exported = 0
        for (index, event) in (document["events"]?.arrayValue ?? []).enumerated() {
            for member in event.objectValue ?? [] {
                for value in values {
                    var events = document["events"]!.arrayValue!
                    events[index] = .object((event.objectValue ?? []).map { $0.key == member.key ? ($0.key, value) : $0 })
                    let changed = JSONValue.object((document.objectValue ?? []).map { $0.key == "events" ? ("events", .array(events)) : $0 })
                    do {
                        _ = try RecordingExport.fixture(try RecordingReader(changed))
                        exported += 1
                    } catch {
                        #expect(!error.reason.isEmpty)
                    }
                }
            }
        }
        #expect(exported > 0)
    }

    @Test("bad usage exits 64", arguments: [
        [String](), ["import"], ["export", "--order", "random"], ["export", "--server", "http://127.0.0.1:1"],
        ["export", "--from", "soon"], ["export", "--from", "2m", "--to", "1m"], ["export", "--rule", "Q1"],
        ["export", "--app", "nokey"], ["export", "--devices", ","], ["export", "--no-callbacks=1"],
    ])
    func usage(arguments: [String]) {
        #expect(RecordCommand.run(arguments, environment: [:]) == 64)
    }

    @Test("an unreadable file exits 66, a server that gives no recording 69")
    func sources() throws {
        #expect(RecordCommand.run(["export", "--input", "/nonexistent/recording.json"], environment: [:]) == 66)
        let port = try RefusingPort()
        #expect(RecordCommand.run(["export", "--server", "http://127.0.0.1:\(port.port)", "--app", "a#b"], environment: [:]) == 69)
    }

    @Test("a recording of another app than --app names exits 65")
    func otherApp() throws {
        #expect(RecordCommand.run(["export", "--app", "other#app", "--input", try file(Self.valid)], environment: [:]) == 65)
    }
}
