import IMockCommon
import IMockCore

/// The medians of several rounds of the same scenarios against several servers, and how many
/// times better imock did than each baseline (`imock / baseline` for rates, `baseline / imock`
/// for latencies: above 1 means imock is better).
public struct Comparison: Sendable, Equatable {
    /// One scenario part across servers.
    public struct Line: Sendable, Equatable {
        public var scenario: String
        public var dialect: String?
        public var part: String
        /// Per server (report order): the rounds measured and the median of each figure.
        public var servers: [(server: String, rounds: Int, medians: [BenchFigure])]
        /// Per baseline: the ratio of each figure that has a better direction.
        public var ratios: [(baseline: String, figures: [(key: String, label: String, ratio: Double)])]

        public static func == (lhs: Line, rhs: Line) -> Bool {
            lhs.scenario == rhs.scenario && lhs.dialect == rhs.dialect && lhs.part == rhs.part
                && lhs.servers.elementsEqual(rhs.servers) { $0.server == $1.server && $0.rounds == $1.rounds && $0.medians == $1.medians }
                && lhs.ratios.elementsEqual(rhs.ratios) {
                    $0.baseline == $1.baseline && $0.figures.elementsEqual($1.figures) { $0 == $1 }
                }
        }
    }

    public var lines: [Line]

    /// Groups `reports` (every round, every server) by scenario, dialect and part.
    public init(_ reports: [ScenarioReport]) {
        var order: [String] = []
        var groups: [String: [(server: String, part: BenchPart, report: ScenarioReport)]] = [:]
        for report in reports where report.skipped == nil {
            for part in report.parts {
                let key = "\(report.scenario)\u{1}\(report.dialect ?? "")\u{1}\(part.name)"
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append((report.server, part, report))
            }
        }
        lines = order.compactMap { key in
            guard let members = groups[key], let first = members.first else { return nil }
            var servers: [String] = []
            for member in members where !servers.contains(member.server) { servers.append(member.server) }
            let medians = servers.map { server -> (server: String, rounds: Int, medians: [BenchFigure]) in
                let parts = members.filter { $0.server == server }.map(\.part)
                let figures = parts[0].figures.map { figure -> BenchFigure in
                    var median = figure
                    median.value = Self.median(parts.compactMap { $0.figure(figure.key)?.value })
                    return median
                }
                return (server, parts.count, figures)
            }
            var ratios: [(baseline: String, figures: [(key: String, label: String, ratio: Double)])] = []
            if let imock = medians.first(where: { $0.server == ServerKind.imock.rawValue }) {
                for baseline in medians where baseline.server != imock.server {
                    let figures = imock.medians.compactMap { figure -> (key: String, label: String, ratio: Double)? in
                        guard let better = figure.better,
                            let other = baseline.medians.first(where: { $0.key == figure.key })?.value,
                            other > 0, figure.value > 0
                        else { return nil }
                        let ratio = better == .higher ? figure.value / other : other / figure.value
                        return (figure.key, figure.label, ratio)
                    }
                    ratios.append((baseline.server, figures))
                }
            }
            return Line(
                scenario: first.report.scenario, dialect: first.report.dialect, part: first.part.name, servers: medians,
                ratios: ratios)
        }
    }

    /// The median of `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The table: per part, one row per server with its medians, then one per baseline ratio.
    public var rows: [String] {
        lines.flatMap { line -> [String] in
            let head = ScenarioReport.pad("\(line.scenario)/\(line.part)", 26)
            let dialect = line.dialect.map { " " + $0 } ?? ""
            var rows = line.servers.map { server in
                let figures = server.medians.map { "\($0.label) \($0.formatted)" }.joined(separator: "  ")
                return "\(head) \(ScenarioReport.pad(server.server + dialect, 18)) median of \(server.rounds): \(figures)"
            }
            for ratio in line.ratios {
                let figures = ratio.figures.map { "\($0.label) \(DecimalText.fixed($0.ratio, digits: 2))×" }
                    .joined(separator: "  ")
                rows.append("\(head) \(ScenarioReport.pad("imock/" + ratio.baseline, 18)) \(figures)")
            }
            return rows
        }
    }

    /// One JSON object per line: `{"comparison": scenario, part, dialect, servers, ratios}`.
    public var json: [JSONValue] {
        lines.map { line in
            .object([
                ("comparison", .string(line.scenario)),
                ("part", .string(line.part)),
                ("dialect", line.dialect.map { .string($0) } ?? .null),
                (
                    "servers",
                    .array(
                        line.servers.map { server in
                            .object(
                                [("server", .string(server.server)), ("rounds", .int(Int64(server.rounds)))]
                                    + server.medians.map { ($0.key, ScenarioReport.number($0.value)) })
                        })
                ),
                (
                    "ratios",
                    .array(
                        line.ratios.map { ratio in
                            .object(
                                [("baseline", .string(ratio.baseline))]
                                    + ratio.figures.map { ($0.key, ScenarioReport.number($0.ratio)) })
                        })
                ),
            ])
        }
    }
}
