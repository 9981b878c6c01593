
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
        html += "<div class=\"diagram\">" + SequenceDiagram(result: result).svg + "</div>\n"
        return html + "</details>\n"
    }

    /// Fonts with Chinese, Japanese and Korean glyphs on Linux, macOS and Windows, after the
    /// Latin ones: rule names quote the vendors' Chinese documents, and a page that names no
    /// CJK font shows them as boxes where the default fallback has none.
    static let cjkFonts = #""Noto Sans CJK SC","Source Han Sans SC","WenQuanYi Micro Hei","PingFang SC","Hiragino Sans GB","Microsoft YaHei""#

    static let style = """
        body{font-family:system-ui,-apple-system,"DejaVu Sans",\(cjkFonts),sans-serif;margin:24px;color:#1d2330;background:#fafbfc}
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
        .diagram{overflow-x:auto;max-width:100%;border:1px solid #e2e8f0;background:#fff}
        svg{display:block;margin-top:8px;font-family:"DejaVu Sans Mono",Menlo,"Noto Sans Mono CJK SC",\(cjkFonts),monospace;font-size:11px}
        """
}
