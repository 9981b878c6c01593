/// The SVG sequence diagram of one scenario. A wide one (many devices) scrolls sideways in its
/// box on the page, and a long one repeats the lifelines' names every ``headEvery`` rows, so a
/// row far down or far right still says whose lane it is.
struct SequenceDiagram {
    let result: ScenarioResult
    static let rowHeight = 22
    static let laneGap = 290
    static let top = 46
    /// Rows between two repetitions of the lifelines' names.
    static let headEvery = 20
    /// The height of a band of repeated names.
    static let headBand = 20

    /// The top of timeline row `row`, below the bands of names repeated before it.
    private func rowY(_ row: Int) -> Int { Self.top + row * Self.rowHeight + (row / Self.headEvery) * Self.headBand }

    /// Lane x positions: the test (app server), the imock server, then each device.
    private var lanes: [String: Int] {
        var lanes = ["test": 80, "server": 280]
        for (index, device) in result.devices.enumerated() { lanes[device] = 500 + index * Self.laneGap }
        return lanes
    }

    private var width: Int { 500 + max(result.devices.count - 1, 0) * Self.laneGap + 360 }

    var svg: String {
        let lanes = self.lanes
        let height = rowY(result.timeline.count) + 20
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
            if row > 0, row % Self.headEvery == 0 {
                let y = rowY(row) - Self.headBand + 14
                for (key, title) in heads { body += text(lanes[key]!, y, title, "repeat", anchor: "middle", limit: 24) }
                body += "\n"
            }
            body += self.row(event, y: rowY(row), lanes: lanes)
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
            <defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#4a5568"/></marker>
            <marker id="arrowred" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#c53030"/></marker></defs>
            <style>.head{fill:#edf2f7;stroke:#a0aec0}.headtext{font-weight:bold;fill:#2d3748}.repeat{fill:#718096;font-weight:bold;font-size:10px}.life{stroke:#cbd5e0;stroke-dasharray:4 3}
            .msg{stroke:#4a5568;marker-end:url(#arrow)}.kick{stroke:#c05621;marker-end:url(#arrow)}.close{stroke:#a0aec0;stroke-dasharray:3 2;marker-end:url(#arrow)}
            .fault{stroke:#dd6b20;stroke-width:2;marker-end:url(#arrow)}.call{stroke:#2b6cb0;marker-end:url(#arrow)}
            .cb{fill:#ebf8ff;stroke:#3182ce}.label{fill:#2d3748}.small{fill:#718096}.clock{stroke:#805ad5;stroke-dasharray:6 4}.clocktext{fill:#6b46c1;font-weight:bold}
            .ok{fill:#2f855a}.bad{fill:#c53030;font-weight:bold}.badrow{fill:#fde8e8}.faulttext{fill:#c05621}</style>
            \(body)</svg>
            """
    }

    private func time(_ ms: Int64) -> String { "+" + DurationText.format(ms - result.startMs) }

    private func text(_ x: Int, _ y: Int, _ content: String, _ cls: String = "label", anchor: String = "start", limit: Int = 48) -> String {
        let shown = DisplayWidth.truncate(content, to: limit)
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
