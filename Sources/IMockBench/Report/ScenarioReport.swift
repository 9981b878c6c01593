import IMockCore

/// What one run of one scenario against one server measured.
public struct ScenarioReport: Sendable, Equatable {
    /// `rest`, `login-storm`, …
    public var scenario: String
    /// `imock`, `python`, `nginx`, or `in-process`.
    public var server: String
    /// The wire dialect of the session connections, for scenarios that open them.
    public var dialect: String?
    /// What generated the load.
    public var load: String
    /// The sizes it ran at (`devices`, `inFlight`, …).
    public var size: [(key: String, value: Int)]
    public var parts: [BenchPart]
    /// Why it did not run, when it did not (the parts are empty then).
    public var skipped: String?

    public init(
        scenario: String, server: String, dialect: String? = nil, load: String, size: [(key: String, value: Int)] = [],
        parts: [BenchPart], skipped: String? = nil
    ) {
        self.scenario = scenario
        self.server = server
        self.dialect = dialect
        self.load = load
        self.size = size
        self.parts = parts
        self.skipped = skipped
    }

    /// A report saying why the scenario did not run.
    static func skipped(_ scenario: String, server: String, load: String, reason: String) -> ScenarioReport {
        ScenarioReport(scenario: scenario, server: server, load: load, parts: [], skipped: reason)
    }

    public static func == (lhs: ScenarioReport, rhs: ScenarioReport) -> Bool {
        lhs.scenario == rhs.scenario && lhs.server == rhs.server && lhs.dialect == rhs.dialect && lhs.load == rhs.load
            && lhs.size.elementsEqual(rhs.size, by: ==) && lhs.parts == rhs.parts && lhs.skipped == rhs.skipped
    }

    /// The table rows: one per part (`scenario/part  server  dialect  label value …`), or one
    /// saying why it was skipped.
    public var rows: [String] {
        let head = "\(scenario)"
        let tail = "\(server)\(dialect.map { " " + $0 } ?? "")"
        if let skipped { return ["\(Self.pad(head, 26)) \(Self.pad(tail, 18)) skipped: \(skipped)"] }
        return parts.map { part in
            let figures = part.figures.map { "\($0.label) \($0.formatted)" }.joined(separator: "  ")
            let notes = part.notes.isEmpty ? "" : "  (" + part.notes.joined(separator: "; ") + ")"
            return "\(Self.pad(head + "/" + part.name, 26)) \(Self.pad(tail, 18)) \(figures)\(notes)"
        }
    }

    /// One JSON object: scenario, server, dialect, load, size, parts (each with its figures as
    /// members and its notes), skipped.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("scenario", .string(scenario)), ("server", .string(server)),
            ("dialect", dialect.map { .string($0) } ?? .null), ("load", .string(load)),
            ("size", .object(size.map { ($0.key, .int(Int64($0.value))) })),
        ]
        members.append(
            (
                "parts",
                .array(
                    parts.map { part in
                        .object(
                            [("part", .string(part.name))] + part.figures.map { ($0.key, Self.number($0.value)) }
                                + [("notes", .array(part.notes.map { .string($0) }))])
                    })
            ))
        members.append(("skipped", skipped.map { .string($0) } ?? .null))
        return .object(members)
    }

    static func number(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        if value == value.rounded(), abs(value) < 1e15 { return .int(Int64(value)) }
        return .double((value * 1000).rounded() / 1000)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
