import IMockCommon
import IMockCore

/// The console report: a progress line per fixture, then a timeline per failing scenario with
/// the first divergence marked (expected vs observed, virtual times, device, the step).
public enum ConsoleReport {
    /// `[3/52] PASS  E/E10-….json  (31 ms, 10m virtual)`.
    public static func progress(_ result: ScenarioResult, done: Int, total: Int) -> String {
        let width = String(total).count
        let count = String(repeating: " ", count: width - String(done).count) + String(done)
        return "[\(count)/\(total)] \(label(result.outcome).padding(6)) \(result.file)  (\(result.wallMs) ms, \(DurationText.format(result.virtualMs)) virtual)"
            + (result.outcome == .skipped ? " — \(result.note ?? "")" : "")
    }

    static func label(_ outcome: ScenarioOutcome) -> String {
        switch outcome {
        case .passed: "PASS"
        case .failed: "FAIL"
        case .expectedFailure: "XFAIL"
        case .unexpectedPass: "XPASS"
        case .skipped: "SKIP"
        }
    }

    /// The closing line: `52 passed, 0 failed, 3 expected failures, 0 skipped in 1.9 s`.
    public static func summary(_ results: [ScenarioResult], wall: Duration) -> String {
        let count = { (outcome: ScenarioOutcome) in results.filter { $0.outcome == outcome }.count }
        let failed = count(.failed) + count(.unexpectedPass)
        let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        return "\(count(.passed) + count(.expectedFailure)) passed, \(failed) failed, \(count(.skipped)) skipped"
            + " (\(count(.expectedFailure)) expected failures) in \(DecimalText.fixed(seconds, digits: 2)) s"
    }

    /// The failing scenarios (every one with `verbose`), each with its timeline.
    public static func render(_ results: [ScenarioResult], verbose: Bool) -> String {
        results.filter { verbose || $0.outcome.isFailure }.map(scenario).joined(separator: "\n")
    }

    /// One scenario: header, divergence, timeline.
    public static func scenario(_ result: ScenarioResult) -> String {
        var lines = ["", "\(label(result.outcome)) \(result.file) — \(result.name)"]
        lines.append("  rules: " + result.rules.map { "\($0.id) (\($0.source))" }.joined(separator: ", "))
        if result.outcome == .unexpectedPass {
            lines.append("  marked as an expected failure (\(result.note ?? "")) but every expectation held: remove \"expectedFailure\"")
        } else if let note = result.note {
            switch result.outcome {
            case .skipped: lines.append("  skipped: \(note)")
            case .expectedFailure: lines.append("  expected failure: \(note)")
            default: lines.append("  \(note)")
            }
        }
        if let divergence = result.divergence {
            lines.append("  first divergence at \(divergence.stepPath.isEmpty ? "set-up" : divergence.stepPath) \(divergence.stepSummary) (+\(DurationText.format(divergence.atMs - result.startMs)) virtual)")
            lines.append("    \(divergence.failure.message)")
            if !divergence.failure.expected.isEmpty {
                lines.append("    expected:")
                lines += divergence.failure.expected.map { "      \($0)" }
            }
            if !divergence.failure.observed.isEmpty {
                lines.append("    observed:")
                lines += divergence.failure.observed.map { "      \($0)" }
            }
        }
        lines.append("  timeline (virtual time since start, #global sequence):")
        for event in result.timeline {
            lines.append("    " + line(event, result))
        }
        return lines.joined(separator: "\n")
    }

    static func line(_ event: TimelineEvent, _ result: ScenarioResult) -> String {
        let time = { (ms: Int64) in ("+" + DurationText.format(ms - result.startMs)).padding(8) }
        switch event {
        case .step(_, let path, let summary, _, let atMs):
            return "\(time(atMs)) ▶ \(path) \(summary)"
        case .callback(let callback):
            return "\(time(callback.timeMs))   #\(callback.sequence) \(callback.device): \(callback.summary)"
        case .server(let device, let resource, let summary, let atMs):
            return "\(time(atMs))   server → \(device ?? resource ?? "a connection not logged in"): \(summary)"
        case .request(let summary, let status, let atMs, let isFault):
            return "\(time(atMs))   \(isFault ? "⚡ " : "")\(summary) → \(status)"
        case .clock(let from, let to):
            return "\(time(to))   clock +\(DurationText.format(to - from))"
        case .check(let index, let summary, let passed, let atMs):
            let failed = !passed && result.divergence?.stepIndex == index
            return "\(time(atMs)) \(passed ? "✓" : "✗") steps[\(index)] \(summary)" + (failed ? "   ◀◀ FIRST DIVERGENCE" : "")
        }
    }
}
