import IMockCommon
import IMockCore
import Testing

/// Progress lines of long operations, and the seed loader's progress callback.
@Suite("Progress")
struct ProgressReporterTests {
    @Test("a line names the title, the count, the share and the rate")
    func line() {
        #expect(
            ProgressReporter.line(title: "seed", done: 4_200, total: 10_000, elapsed: .seconds(2))
                == "seed 4,200/10,000 (42%), 2,100/s")
        #expect(ProgressReporter.line(title: "x", done: 0, total: 0, elapsed: .zero) == "x 0/0 (100%), 0/s")
        #expect(ProgressReporter.grouped(-1_234_567) == "-1,234,567")
    }

    @Test("lines are throttled to the interval; a short operation reports nothing")
    func throttled() {
        var lines: [String] = []
        var quiet = ProgressReporter(title: "t", total: 3, interval: .seconds(3600)) { lines.append($0) }
        for done in 1...3 { quiet.report(done: done) }
        #expect(lines.isEmpty)
        var chatty = ProgressReporter(title: "t", total: 3, interval: .zero) { lines.append($0) }
        for done in 1...3 { chatty.report(done: done) }
        #expect(lines.count == 3)
        #expect(lines.last?.hasPrefix("t 3/3 (100%)") == true)
    }

    @Test("loading a seed tells progress once per user, over all apps")
    func seedProgress() throws {
        let document = try SeedDocument.parse(bytes: Array("""
            {"version":1,"apps":[{"appKey":"a#one","users":[{"username":"u1"},{"username":"u2"}]},
              {"appKey":"a#two","users":[{"username":"v1"}]}]}
            """.utf8))
        var seen: [(Int, Int)] = []
        _ = try document.makeDirectory(settings: DirectorySettings(passwordIterations: 1), nowMs: 0) { seen.append(($0, $1)) }
        #expect(seen.map(\.0) == [1, 2, 3])
        #expect(seen.allSatisfy { $0.1 == 3 })
    }
}
