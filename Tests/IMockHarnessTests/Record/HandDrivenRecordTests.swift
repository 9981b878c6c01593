import Foundation
import IMockCommon
import IMockCore
import IMockHarness
import IMockNet
import IMockServer
import IMockTestSupport
import Testing

extension HarnessTests {
    /// A device driven by hand (no harness): what its own driver posts to `POST /_imock/record`
    /// over HTTP lands in the recording, and the export checks it (docs/RECORD.md § Callbacks).
    @Suite("Record mode: a device driven by hand")
    struct HandDrivenRecordTests {
        @Test("callbacks posted over a loopback socket by a hand-driven device's driver are checked by the export, and hold on replay")
        func postedCallbacksAreChecked() async throws {
            let server = try MutantServer(decider: AppLoginDecider())
            let http = HTTPTestClient(port: server.port)
            let secret = MutantServer.secret
            func control(_ method: String, _ path: String, _ json: String) throws -> Int {
                try http.request(method, path, json: json, token: secret).status
            }
            let seed = #"{"version":1,"apps":[{"appKey":"acme#chat","registrationMode":"open"}]}"#
            #expect(try control("POST", "/_imock/seed", seed) == 200)
            #expect(try control("POST", "/_imock/record", #"{"app":"acme#chat","action":"start"}"#) == 200)
            let token = try http.userToken(appPath: "/acme/chat", user: "ann")
            let phone = try await TestWebSocket.connect(loop: server.loop, port: server.port)
            phone.send(text: #"{"op":"login","id":"1","appKey":"acme#chat","user":"ann","token":"\#(token)","device":{"os":"ios","name":"Ann's phone","uuid":"p1"}}"#)
            guard case .text(let answer)? = await phone.next() else { Issue.record("no answer to the login"); return }
            #expect(answer.contains("login.ok"), "\(answer)")
            // What the app's SDK reported, posted by its driver (the curl of docs/RECORD.md).
            let reported = #"""
                {"app":"acme#chat","action":"callbacks","callbacks":[
                 {"resource":"ios_p1","name":"onDatabaseOpened"},{"resource":"ios_p1","name":"loginCompletion"},
                 {"resource":"ios_p1","name":"connectionStateDidChange","profile":"easemob"}]}
                """#
            #expect(try control("POST", "/_imock/record", reported) == 200)
            #expect(try control("POST", "/_imock/record", #"{"app":"acme#chat","action":"stop"}"#) == 200)
            let response = try http.raw("GET", "/_imock/record?app=acme%23chat", headers: ["Authorization: Bearer \(secret)"])
            await server.stop()
            let exported = try RecordingExport.fixture(try RecordingReader(bytes: response.body)).fixture
            let sequence = exported["steps"]?.arrayValue?.first { $0["expect"]?.stringValue == "sequence" }
            #expect(sequence?["device"]?.stringValue == "ios", "\(exported.prettyString)")
            #expect(sequence?["callbacks"] == ["onDatabaseOpened", "loginCompletion", "connectionStateDidChange"])
            // The reference client reports the same on replay; a wrong report would fail it.
            let replay = await run(try parseFixture(exported.prettyString))
            #expect(replay.outcome == .passed, "\(ConsoleReport.scenario(replay))\n\(exported.prettyString)")
        }
    }
}
