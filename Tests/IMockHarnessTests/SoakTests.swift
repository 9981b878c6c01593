import Foundation
import IMockCore
import IMockHarness
import IMockTestSupport
import Testing

/// `imock soak` (docs/SOAK.md): a short soak in process must lose, duplicate and reorder
/// nothing, close every kick, keep memory and files flat, and write a well-formed report; one
/// against an external `imock serve --clock virtual` samples that process.
///
/// `IMOCK_SOAK_SECONDS` sets the in-process run's length (default 15 s; `.ci/run` sets 60, the
/// one-minute run of issue #14). The soak is light (about a tenth of a core) and its suite is
/// not serialized with the others, so its minute overlaps the rest of `swift test`.
@Suite("Soak")
struct SoakTests {
    static var seconds: Int {
        ProcessInfo.processInfo.environment["IMOCK_SOAK_SECONDS"].flatMap(Int.init).map { max($0, 5) } ?? 15
    }

    @Test("an in-process soak loses nothing, duplicates nothing and keeps memory and files flat")
    func inProcess() async throws {
        let report = try await SoakRun.run(SoakConfiguration(duration: .seconds(Self.seconds), seed: 14))
        #expect(report.passed, "\(report.text)")
        let m = report.messages
        #expect(m.lost == 0 && m.duplicated == 0 && m.outOfOrder == 0 && m.misdelivered == 0, "\(report.text)")
        #expect(report.kicksWithoutClose == 0 && report.anomalyCount == 0, "\(report.text)")
        // Every ingredient of the mix happened.
        #expect(m.accepted > 100 && m.deliveredLive > 0 && m.deliveredOffline > 0 && m.acked > 0, "\(report.text)")
        #expect(m.redelivered > 0, "offline messages not acked come again: \(report.text)")
        #expect(report.loginsAccepted > 50 && report.kicksClosed > 0 && report.tokenExpiries > 0, "\(report.text)")
        #expect(Set(report.kicked.keys).isSuperset(of: [206, 217, 2002]), "policy, REST and control-API kicks: \(report.text)")
        #expect(!report.loginsRefused.isEmpty, "policies refuse logins too: \(report.text)")
        #expect(report.renewalsAccepted > 0 && report.clockAdvances > 0 && report.tokenWarnings > 0, "\(report.text)")
        #expect(report.faults.count >= 4, "\(report.text)")
        #expect(report.apps.map(\.name) == ["em-multi", "em-single", "em-multi-keep", "em-single-keep", "oi-0", "oi-1", "oi-4", "oi-5"])
        // Memory and files: sampled about once a second, within the bound, back to the start.
        #expect(report.memoryUnavailable == nil)
        #expect(report.samples.count >= Self.seconds - 1, "\(report.samples.count) samples")
        #expect(report.memoryGrowthBytes <= report.memoryBoundBytes)
        let start = try #require(report.filesAtStart)
        #expect((report.filesAtEnd ?? .max) <= start + SoakReport.fileTolerance)
        // The report reads back as JSON with the documented members, and as text.
        let json = try JSONValue.parse(Array(report.json.encodedString.utf8))
        #expect(json["passed"]?.boolValue == true)
        for member in ["seed", "target", "logins", "kicks", "ends", "tokens", "control", "messages", "memory", "files", "anomalies"] {
            #expect(json[member] != nil, "\(member)")
        }
        #expect(json["messages"]?["lost"]?.intValue == 0)
        #expect(json["memory"]?["samples"]?.arrayValue?.count == report.samples.count)
        #expect(report.text.hasSuffix("result    PASS"), "\(report.text)")
    }

    @Test("a soak of an external imock serve --clock virtual samples that process")
    func external() async throws {
        let server = try await IMockProcess.start(["--clock", "virtual", "--admin-secret", "soak-secret"])
        let report = try await SoakRun.run(SoakConfiguration(
            duration: .seconds(5), seed: 3, devices: 16,
            target: .external(url: "http://127.0.0.1:\(server.port)", adminSecret: "soak-secret", pid: nil)))
        try server.stop()
        #expect(report.passed, "\(report.text)")
        #expect(report.target == "imock serve at http://127.0.0.1:\(server.port) (pid \(server.pid))")
        #expect(report.memoryUnavailable == nil && report.samples.count >= 4, "\(report.text)")
        #expect(report.messages.lost == 0 && report.messages.accepted > 0, "\(report.text)")
    }

    @Test("an external server on a flowing clock is refused")
    func externalSystemClock() async throws {
        let server = try await IMockProcess.start(["--admin-secret", "soak-secret"])
        defer { try? server.stop() }
        await #expect(throws: SoakFailure.self) {
            try await SoakRun.run(SoakConfiguration(
                duration: .seconds(5), target: .external(url: "http://127.0.0.1:\(server.port)", adminSecret: "soak-secret", pid: nil)))
        }
    }
}
