
/// One self-contained HTML page (no network, no script): a summary table, then each scenario as
/// a sequence diagram in SVG — the test/app server, the imock server and every device as
/// lifelines; requests, frames and callbacks as arrows; faults and clock jumps marked; failures in red.
public enum HTMLReport {
    /// The page for `results`.
    public static func render(_ results: [ScenarioResult]) -> String {
        let failed = results.filter { $0.outcome.isFailure }.count
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>imock run — \(results.count) scenarios, \(failed) failed</title>
            <style>\(style)</style></head><body>
            <h1>imock conformance run</h1>
            <p class="summary">\(summaryLine(results))</p>
            <table class="index"><tr><th>outcome</th><th>fixture</th><th>rules</th><th>wall</th><th>virtual</th></tr>
            """
        for (index, result) in results.enumerated() {
            html += "<tr class=\"\(result.outcome.rawValue)\"><td>\(ConsoleReport.label(result.outcome))</td>"
                + "<td><a href=\"#s\(index)\">\(XMLText.escape(result.file))</a></td>"
                + "<td>\(XMLText.escape(result.rules.map(\.id).joined(separator: " ")))</td>"
                + "<td>\(result.wallMs) ms</td><td>\(DurationText.format(result.virtualMs))</td></tr>\n"
        }
        html += "</table>\n"
        for (index, result) in results.enumerated() { html += scenario(result, anchor: "s\(index)") }
        return html + "</body></html>\n"
    }

    private static func summaryLine(_ results: [ScenarioResult]) -> String {
        let count = { (outcome: ScenarioOutcome) in results.filter { $0.outcome == outcome }.count }
        return "\(count(.passed)) passed · \(count(.failed) + count(.unexpectedPass)) failed · "
            + "\(count(.expectedFailure)) expected failures · \(count(.skipped)) skipped"
    }

    private static func scenario(_ result: ScenarioResult, anchor: String) -> String {
        var html = "<details id=\"\(anchor)\" class=\"scenario \(result.outcome.rawValue)\"\(result.outcome.isFailure ? " open" : "")>"
        html += "<summary><span class=\"badge\">\(ConsoleReport.label(result.outcome))</span> \(XMLText.escape(result.file)) — \(XMLText.escape(result.name))</summary>\n"
        html += "<p class=\"rules\">" + result.rules.map { "<b>\($0.id)</b> \(XMLText.escape($0.source))" }.joined(separator: " · ")
            + " · \(result.wallMs) ms wall, \(DurationText.format(result.virtualMs)) virtual</p>\n"
        if let note = result.note {
            let label = result.outcome == .skipped ? "skipped: " : result.outcome == .expectedFailure ? "expected failure: " : ""
            html += "<p class=\"note\">\(label)\(XMLText.escape(note))</p>\n"
        }
        if let divergence = result.divergence {
            var text = "first divergence at \(divergence.stepPath) \(divergence.stepSummary) (+\(DurationText.format(divergence.atMs - result.startMs)))\n"
            text += divergence.failure.message + "\n"
            if !divergence.failure.expected.isEmpty { text += "expected:\n" + divergence.failure.expected.map { "  " + $0 }.joined(separator: "\n") + "\n" }
            if !divergence.failure.observed.isEmpty { text += "observed:\n" + divergence.failure.observed.map { "  " + $0 }.joined(separator: "\n") }
            html += "<pre class=\"divergence\">\(XMLText.escape(text))</pre>\n"
        }
        html += SequenceDiagram(result: result).svg
        return html + "</details>\n"
    }

    static let style = """
        body{font-family:system-ui,-apple-system,"DejaVu Sans",sans-serif;margin:24px;color:#1d2330;background:#fafbfc}
        h1{font-size:22px;margin:0 0 8px} .summary{font-size:15px}
        table.index{border-collapse:collapse;margin:12px 0 24px;font-size:13px}
        table.index td,table.index th{border:1px solid #d7dce3;padding:3px 8px;text-align:left}
        tr.failed td,tr.unexpectedPass td{background:#fde8e8;color:#9b1c1c}
        tr.expectedFailure td{background:#fff7e0} tr.skipped td{color:#777}
        details.scenario{background:#fff;border:1px solid #d7dce3;border-radius:6px;margin:0 0 16px;padding:8px 12px}
        details.failed,details.unexpectedPass{border-color:#d33}
        summary{cursor:pointer;font-weight:600;font-size:14px}
        .badge{display:inline-block;min-width:46px;text-align:center;border-radius:4px;padding:1px 6px;color:#fff;background:#2f855a;font-size:12px}
        .failed .badge,.unexpectedPass .badge{background:#c53030} .expectedFailure .badge{background:#b7791f} .skipped .badge{background:#718096}
        .rules{font-size:12px;color:#4a5568} .note{font-size:12px;color:#8a5a00}
        pre.divergence{background:#fde8e8;color:#7f1d1d;border:1px solid #f5b5b5;padding:8px;font-size:12px;white-space:pre-wrap}
        svg{display:block;margin-top:8px;font-family:"DejaVu Sans Mono",Menlo,monospace;font-size:11px}
        """
}

/// The SVG sequence diagram of one scenario.
struct SequenceDiagram {
    let result: ScenarioResult
    static let rowHeight = 22
    static let laneGap = 290
    static let top = 46

    /// Lane x positions: the test (app server), the imock server, then each device.
    private var lanes: [String: Int] {
        var lanes = ["test": 80, "server": 280]
        for (index, device) in result.devices.enumerated() { lanes[device] = 500 + index * Self.laneGap }
        return lanes
    }

    private var width: Int { 500 + max(result.devices.count - 1, 0) * Self.laneGap + 360 }

    var svg: String {
        let lanes = self.lanes
        let height = Self.top + result.timeline.count * Self.rowHeight + 20
        var body = ""
        // Lifelines and their heads.
        let heads = [("test", "test / app server"), ("server", "imock server")] + result.devices.map { ($0, $0) }
        for (key, title) in heads {
            let x = lanes[key]!
            body += "<rect x=\"\(x - 70)\" y=\"6\" width=\"140\" height=\"24\" rx=\"4\" class=\"head\"/>"
            body += "<text x=\"\(x)\" y=\"22\" text-anchor=\"middle\" class=\"headtext\">\(XMLText.escape(title))</text>"
            body += "<line x1=\"\(x)\" y1=\"30\" x2=\"\(x)\" y2=\"\(height - 6)\" class=\"life\"/>\n"
        }
        for (row, event) in result.timeline.enumerated() {
            body += self.row(event, y: Self.top + row * Self.rowHeight, lanes: lanes)
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
            <defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#4a5568"/></marker>
            <marker id="arrowred" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#c53030"/></marker></defs>
            <style>.head{fill:#edf2f7;stroke:#a0aec0}.headtext{font-weight:bold;fill:#2d3748}.life{stroke:#cbd5e0;stroke-dasharray:4 3}
            .msg{stroke:#4a5568;marker-end:url(#arrow)}.kick{stroke:#c05621;marker-end:url(#arrow)}.close{stroke:#a0aec0;stroke-dasharray:3 2;marker-end:url(#arrow)}
            .fault{stroke:#dd6b20;stroke-width:2;marker-end:url(#arrow)}.call{stroke:#2b6cb0;marker-end:url(#arrow)}
            .cb{fill:#ebf8ff;stroke:#3182ce}.label{fill:#2d3748}.small{fill:#718096}.clock{stroke:#805ad5;stroke-dasharray:6 4}.clocktext{fill:#6b46c1;font-weight:bold}
            .ok{fill:#2f855a}.bad{fill:#c53030;font-weight:bold}.badrow{fill:#fde8e8}.faulttext{fill:#c05621}</style>
            \(body)</svg>
            """
    }

    private func time(_ ms: Int64) -> String { "+" + DurationText.format(ms - result.startMs) }

    private func text(_ x: Int, _ y: Int, _ content: String, _ cls: String = "label", anchor: String = "start", limit: Int = 48) -> String {
        let shown = content.count > limit ? String(content.prefix(limit - 1)) + "…" : content
        return "<text x=\"\(x)\" y=\"\(y)\" text-anchor=\"\(anchor)\" class=\"\(cls)\"><title>\(XMLText.escape(content))</title>\(XMLText.escape(shown))</text>"
    }

    private func arrow(from: Int, to: Int, y: Int, cls: String, label: String, labelClass: String = "label") -> String {
        let mid = (from + to) / 2
        return "<line x1=\"\(from)\" y1=\"\(y)\" x2=\"\(to)\" y2=\"\(y)\" class=\"\(cls)\"/>"
            + text(mid, y - 4, label, labelClass, anchor: "middle", limit: max(12, abs(to - from) / 7))
    }

    private func row(_ event: TimelineEvent, y: Int, lanes: [String: Int]) -> String {
        let mid = y + 12
        switch event {
        case .step(_, let path, let summary, let device, let atMs):
            var out = text(4, mid + 4, time(atMs), "small")
            if let device, let x = lanes[device] {
                out += arrow(from: lanes["test"]!, to: x - 4, y: mid, cls: "call", label: "\(path) \(summary)")
            } else {
                out += text(lanes["test"]! - 40, mid + 4, "▶ \(path) \(summary)", "label", limit: 70)
            }
            return out + "\n"
        case .callback(let callback):
            guard let x = lanes[callback.device] else { return "" }
            return text(4, mid + 4, time(callback.timeMs), "small")
                + "<rect x=\"\(x - 3)\" y=\"\(mid - 7)\" width=\"6\" height=\"14\" class=\"cb\"/>"
                + "<path d=\"M\(x + 3),\(mid - 4) h14 v8 h-14\" fill=\"none\" stroke=\"#3182ce\" marker-end=\"url(#arrow)\"/>"
                + text(x + 24, mid + 4, "#\(callback.sequence) \(callback.summary)", limit: 50) + "\n"
        case .server(let device, let resource, let summary, let atMs):
            let target = device.flatMap { lanes[$0] } ?? lanes["server"]! + 120
            let cls = summary.hasPrefix("close") ? "close" : summary.hasPrefix("kicked") || summary.hasPrefix("token.expired") ? "kick" : "msg"
            return text(4, mid + 4, time(atMs), "small")
                + arrow(from: lanes["server"]!, to: target - 4, y: mid, cls: cls, label: device == nil ? "\(resource ?? "?"): \(summary)" : summary) + "\n"
        case .request(let summary, let status, let atMs, let isFault):
            return text(4, mid + 4, time(atMs), "small")
                + arrow(
                    from: lanes["test"]!, to: lanes["server"]! - 4, y: mid, cls: isFault ? "fault" : "call",
                    label: (isFault ? "⚡ " : "") + "\(summary) → \(status)", labelClass: isFault ? "faulttext" : "label") + "\n"
        case .clock(let from, let to):
            return "<line x1=\"40\" y1=\"\(mid)\" x2=\"\(width - 10)\" y2=\"\(mid)\" class=\"clock\"/>"
                + text(lanes["server"]! + 10, mid - 3, "clock \(time(from)) → \(time(to)) (+\(DurationText.format(to - from)))", "clocktext", limit: 60) + "\n"
        case .check(let index, let summary, let passed, let atMs):
            let first = !passed && result.divergence?.stepIndex == index
            return (first ? "<rect x=\"0\" y=\"\(y)\" width=\"\(width)\" height=\"\(Self.rowHeight)\" class=\"badrow\"/>" : "")
                + text(4, mid + 4, time(atMs), "small")
                + text(lanes["test"]! - 40, mid + 4, "\(passed ? "✓" : "✗") steps[\(index)] \(summary)" + (first ? "  ◀ first divergence" : ""),
                    passed ? "ok" : "bad", limit: 150) + "\n"
        }
    }
}
