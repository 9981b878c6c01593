import IMockCommon
import IMockCore
@testable import IMockServer
import IMockTestSupport
import Testing

/// The start-up report: a one-screen banner in text logs, structured lines in JSON logs.
@Suite("Start-up report")
struct StartupReportTests {
    static func report(generatedSecret: String?) -> StartupReport {
        StartupReport(
            httpBase: "http://127.0.0.1:5280", socketBase: "ws://127.0.0.1:5280",
            dialects: [("imock", "/ws"), ("msync", "/websocket")],
            apps: [
                .init(key: "imock#demo", registration: "authorized", policy: LoginPolicy.easemobDefault.summary, clientID: "YXA6id", clientSecret: "YXA6secret"),
                .init(key: "acme#im", registration: "open", policy: LoginPolicy.openIM(.allLoginButSameTermKick).summary, clientID: "YXA6x", clientSecret: nil),
            ],
            generatedAdminSecret: generatedSecret, controlRemote: false, clockMode: "virtual", clockNowMs: 0, dataDirectory: nil)
    }

    @Test("the banner names every face, app, policy, the secret, the clock and the state, in one screen")
    func banner() {
        let lines = Self.report(generatedSecret: "generated-1").bannerLines(version: "9.9.9")
        let text = lines.joined(separator: "\n")
        #expect(lines.count <= 24)
        #expect(lines.allSatisfy { $0.count <= 140 }, "\(text)")
        for needle in [
            "imock 9.9.9", "http://127.0.0.1:5280/{org}/{app}/", "http://127.0.0.1:5280/openim/{org}/{app}/", "imock   ws://127.0.0.1:5280/ws", "msync   ws://127.0.0.1:5280/websocket",
            "http://127.0.0.1:5280/_imock/", "http://127.0.0.1:5280/_imock/ui", "generated-1",
            "virtual, frozen at 1970-01-01T00:00:00.000Z", "in memory", "imock#demo  authorized registration, easemob multi-device, 4 per group",
            "client_secret YXA6secret", "acme#im  open registration, openim 1 AllLoginButSameTermKick",
        ] {
            #expect(text.contains(needle), "\(needle) missing from:\n\(text)")
        }
        #expect(!text.contains("YXA6x "), "only the demo app's credentials are shown")
    }

    @Test("a given admin secret is never printed, only where it came from")
    func givenSecret() {
        let text = Self.report(generatedSecret: nil).bannerLines(version: "1").joined(separator: "\n")
        #expect(text.contains("given by --admin-secret or IMOCK_ADMIN_SECRET"))
        let fields = Self.report(generatedSecret: nil).logEntries.flatMap(\.fields).map(\.0)
        #expect(!fields.contains("adminSecret"))
    }

    @Test("JSON logs carry the same facts as structured lines")
    func jsonEntries() {
        let entries = Self.report(generatedSecret: "g").logEntries
        #expect(entries.map(\.event) == ["control", "rest", "dialect", "dialect", "app", "app"])
        let dialects = entries.filter { $0.event == "dialect" }.map { Dictionary(uniqueKeysWithValues: $0.fields)["url"] }
        #expect(dialects == ["ws://127.0.0.1:5280/ws", "ws://127.0.0.1:5280/websocket"])
        let control = Dictionary(uniqueKeysWithValues: entries[0].fields)
        #expect(control["adminSecret"] == "g" && control["clock"] == "virtual" && control["state"] == "memory")
    }

    @Test("policy summaries", arguments: [
        (LoginPolicy.easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins), keepCurrentDevice: true)),
         "easemob single-device, first device wins, keep current device"),
        (LoginPolicy.easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld))), "easemob single-device, new kicks old"),
        (LoginPolicy.openIM(.pcAndOther), "openim 5 PCAndOther"),
    ])
    func policySummary(policy: LoginPolicy, text: String) {
        #expect(policy.summary == text)
    }
}
