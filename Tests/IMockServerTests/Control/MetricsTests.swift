import IMockCommon
import Foundation
import Testing
@testable import IMockServer
import IMockCore
import IMockNet
import IMockTestSupport

/// Scrapes `/_imock/metrics` over a raw socket: status, Content-Type and the text.
private func scrape(
    _ fixture: SessionFixture, path: String = "/_imock/metrics", token: String? = InProcessServer.adminSecret
) throws -> (status: Int, contentType: String?, text: String) {
    let socket = try RawSocket(port: fixture.server.port)
    var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if let token { request += "Authorization: Bearer \(token)\r\n" }
    try socket.send(request + "\r\n")
    let response = try socket.receiveResponse()
    return (response.head.status, response.head.headers["Content-Type"], String(decoding: response.body, as: UTF8.self))
}

/// The sample lines (no comments) of an exposition, minus the uptime whose value moves.
private func samples(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.hasPrefix("imock_uptime_seconds ") }
}

@Suite("Control API: Prometheus metrics")
struct MetricsTests {
    @Test("exact samples after 2 REST 200s, one 404, one login ok and one kick 217")
    func knownSequence() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let token = try fixture.userToken("mia")  // POST users 200, POST token 200
        #expect(try fixture.http.request("GET", "/acme/chat/nothing/here").status == 404)
        let device = try await fixture.device("mia", token: token, uuid: "m")
        #expect(try fixture.control("POST", "/_imock/apps/acme/chat/kick", json: #"{"user":"mia","code":217}"#).status == 200)
        #expect((await device.next(op: "<closed>"))["code"]?.int == 4217)
        #expect(try await eventually(fixture.server) { $0.connectionCount == 0 })

        let metrics = try scrape(fixture)
        #expect(metrics.status == 200)
        #expect(metrics.contentType == "text/plain; version=0.0.4; charset=utf-8")
        #expect(samples(metrics.text) == [
            "imock_connections 1",
            #"imock_sessions{app="acme#chat"} 0"#,
            #"imock_logins_total{app="acme#chat",result="ok"} 1"#,
            #"imock_kicks_total{code="217"} 1"#,
            #"imock_rest_requests_total{status="200"} 2"#,
            #"imock_rest_requests_total{status="404"} 1"#,
            "imock_event_streams 0",
        ])
        let uptime = metrics.text.split(separator: "\n").first { $0.hasPrefix("imock_uptime_seconds ") }
        #expect(Double(uptime?.split(separator: " ").last ?? "") ?? -1 >= 0)
        await fixture.stop()
    }

    @Test("every family has HELP and TYPE; live sessions, refused logins and streams are counted")
    func gaugesAndErrors() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let token = try fixture.userToken("noa")
        let device = try await fixture.device("noa", token: token, uuid: "n")
        try await failLogin(fixture.server, loop: fixture.clientLoop, app: SessionFixture.app)
        try await failLogin(fixture.server, loop: fixture.clientLoop, app: "ghost#app")
        let stream = try StreamTestClient(port: fixture.server.port)
        _ = try stream.next()

        let text = try scrape(fixture).text
        for (name, type) in [
            ("imock_connections", "gauge"), ("imock_sessions", "gauge"), ("imock_logins_total", "counter"),
            ("imock_kicks_total", "counter"), ("imock_rest_requests_total", "counter"),
            ("imock_event_streams", "gauge"), ("imock_uptime_seconds", "gauge"),
        ] {
            #expect(text.contains("# HELP \(name) "), "\(name)")
            #expect(text.contains("# TYPE \(name) \(type)\n"), "\(name)")
        }
        let lines = samples(text)
        #expect(lines.contains(#"imock_sessions{app="acme#chat"} 1"#))
        #expect(lines.contains(#"imock_logins_total{app="acme#chat",result="ok"} 1"#))
        #expect(lines.contains(#"imock_logins_total{app="",result="error",code="100"} 1"#))
        #expect(lines.contains(#"imock_logins_total{app="acme#chat",result="error",code="104"} 1"#))
        #expect(lines.contains("imock_event_streams 1"))
        // A second scrape does not count the same session again.
        #expect(samples(try scrape(fixture).text).contains(#"imock_logins_total{app="acme#chat",result="ok"} 1"#))
        _ = device
        await fixture.stop()
    }

    @Test(
        "metrics need the admin secret and take no query parameters",
        arguments: [(nil, "/_imock/metrics", 401), ("wrong", "/_imock/metrics", 401), (InProcessServer.adminSecret, "/_imock/metrics?x=1", 400)]
            as [(String?, String, Int)])
    func refused(token: String?, path: String, status: Int) async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let response = try fixture.http.request("GET", path, token: token)
        #expect(response.status == status)
        #expect(response.body["error_description"]?.string?.isEmpty == false)
        // Refused control calls are not REST requests.
        #expect(!samples(try scrape(fixture).text).contains { $0.hasPrefix("imock_rest_requests_total") })
        await fixture.stop()
    }

    @Test("label values are escaped and samples come in a stable order")
    func exposition() {
        let recorder = MetricsRecorder()
        recorder.record(JournalEntry(
            atMs: 0, connection: ConnectionID(7), app: nil, user: nil, resource: nil,
            event: .loginRefused(RequestTag("l"), .unknownAppKey)))
        for (index, code) in [217, 206, 217].enumerated() {
            recorder.record(JournalEntry(
                atMs: 0, connection: ConnectionID(UInt64(index + 1)), app: try! AppKey(parsing: "a#b"), user: "u", resource: "ios_x",
                event: .loginAccepted(RequestTag("l"), resource: "ios_x", tokenExpiresAt: nil, serverTime: 0)))
            recorder.record(JournalEntry(
                atMs: 0, connection: ConnectionID(UInt64(index + 1)), app: try! AppKey(parsing: "a#b"), user: "u", resource: "ios_x",
                event: .kicked(code: code, reason: "r", by: nil)))
        }
        let snapshot = MetricsExposition.Snapshot(
            connections: 0, sessions: [(#"we"ird\#n"#, 2)], eventStreams: 0, uptimeSeconds: 1.5)
        let lines = MetricsExposition.render(recorder, snapshot).split(separator: "\n").map(String.init)
        #expect(lines.contains(#"imock_sessions{app="we\"ird\n"} 2"#))
        #expect(lines.filter { $0.hasPrefix("imock_kicks_total{") } == [
            #"imock_kicks_total{code="206"} 1"#, #"imock_kicks_total{code="217"} 2"#,
        ])
        // Three journalled login.ok frames.
        #expect(lines.contains(#"imock_logins_total{app="a#b",result="ok"} 3"#))
        #expect(lines.contains("imock_uptime_seconds 1.500"))
    }
}
