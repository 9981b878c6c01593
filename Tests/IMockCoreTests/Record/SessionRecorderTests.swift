import IMockCore
import Testing

@Suite("Record mode: the recorder")
struct SessionRecorderTests {
    static func app() throws -> App {
        var directory = Directory(settings: DirectorySettings(passwordIterations: 10))
        return try directory.createApp(try AppKey(parsing: "acme#chat"))
    }

    @Test("events reach the recording of the app their connection logged in to, in order")
    func routing() throws {
        var recorder = SessionRecorder()
        let app = try Self.app()
        recorder.start(app, nowMs: 10)
        let device = DeviceDescription(platform: .easemob(.ios), uuid: "u1")
        let login = LoginRequest(appKey: "acme#chat", user: "ann", token: "secret-token", device: device)
        recorder.command(.login(RequestTag("1"), login), on: ConnectionID(1), dialect: "imock", credential: .user("ann"), nowMs: 11)
        recorder.command(.login(RequestTag("1"), LoginRequest(appKey: "other#app", user: "x", token: "t", device: device)),
                         on: ConnectionID(2), dialect: "imock", credential: nil, nowMs: 12)
        recorder.command(.ping(nil), on: ConnectionID(2), dialect: "imock", credential: nil, nowMs: 13)
        recorder.sent(["out": "pong"], on: ConnectionID(1), app: nil, nowMs: 14)
        let events = try #require(recorder.recordings[app.key]?.events)
        #expect(events.map { $0["in"]?.stringValue ?? $0["out"]?.stringValue } == ["login", "pong"])
        #expect(events.map { $0["seq"]?.intValue } == [1, 2])
        #expect(!events.map(\.encodedString).joined().contains("secret-token"))
        recorder.stop(app.key, nowMs: 20)
        recorder.sent(["out": "pong"], on: ConnectionID(1), app: nil, nowMs: 21)
        #expect(recorder.recordings[app.key]?.events.count == 2)
        #expect(!recorder.isActive)
    }

    @Test("at its limit a recording stops taking events and says it is truncated")
    func bounded() throws {
        var recorder = SessionRecorder()
        let app = try Self.app()
        recorder.start(app, nowMs: 0)
        for index in 0...Recording.eventLimit {
            _ = recorder.call(["in": "control"], app: app.key, nowMs: Int64(index))
        }
        let recording = try #require(recorder.recordings[app.key])
        #expect(recording.events.count == Recording.eventLimit)
        #expect(recording.truncated)
        #expect(recording.jsonValue["truncated"] == .bool(true))
    }

    @Test("secrets in bodies become placeholders at any depth")
    func redaction() throws {
        let body = try JSONValue.parse(#"{"username":"a","password":"pw","nested":[{"client_secret":"s","keep":"k"}],"Token":null}"#)
        let redacted = RecordedEvent.redact(body)
        #expect(redacted["password"] == .string("<redacted>"))
        #expect(redacted["nested"]?.arrayValue?.first?["client_secret"] == .string("<redacted>"))
        #expect(redacted["nested"]?.arrayValue?.first?["keep"] == .string("k"))
        #expect(redacted["Token"] == .null)
    }

    @Test("a body over the limit, or not JSON, is left out and its size kept")
    func bodyLimit() {
        let large = Array(#"{"text":""#.utf8) + [UInt8](repeating: 0x61, count: Recording.bodyLimit) + Array(#""}"#.utf8)
        let event = RecordedEvent.control(method: "POST", path: "seed", query: [], body: large)
        #expect(event["body"] == nil)
        #expect(event["bodyOmittedBytes"] == .int(Int64(large.count)))
        #expect(RecordedEvent.control(method: "POST", path: "x", query: [], body: Array("nope".utf8))["bodyOmittedBytes"] == .int(4))
        #expect(RecordedEvent.control(method: "POST", path: "x", query: [("token", "t"), ("app", "a#b")], body: [])["query"] == ["app": "a#b"])
    }

    @Test("the seed of a recording holds no secrets")
    func seedWithoutSecrets() throws {
        let seed = Recording.seed(of: try Self.app()).encodedString
        #expect(!seed.contains("clientSecret"))
        #expect(!seed.contains("signingKey"))
        #expect(!seed.contains("passwordHash"))
    }
}
