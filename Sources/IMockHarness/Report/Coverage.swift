import IMockClient

/// Which fixtures cover which rule of the catalogue (`imock run --coverage`).
public enum Coverage {
    /// Rule id → the fixture files naming it, every rule of the catalogue listed.
    public static func map(_ fixtures: [Fixture]) -> [(rule: RuleCatalogue.Rule, fixtures: [Fixture])] {
        RuleCatalogue.rules.map { rule in (rule, fixtures.filter { $0.rules.contains { $0.id == rule.id } }) }
    }

    /// The coverage table; rules without a fixture are marked `MISSING`, fixtures with an
    /// expected failure `(xfail)`, or `(xfail on msync)` when every mark is scoped.
    public static func report(_ fixtures: [Fixture]) -> (text: String, missing: [String]) {
        var lines: [String] = []
        var missing: [String] = []
        for (rule, covering) in map(fixtures) {
            if covering.isEmpty { missing.append(rule.id) }
            let names = covering.map { fixture in
                let file = fixture.file.split(separator: "/").last.map(String.init) ?? fixture.file
                return fixture.expectedFailures.isEmpty ? file : "\(file) (\(xfail(fixture.expectedFailures)))"
            }
            lines.append("\(rule.id.padding(4)) \(covering.isEmpty ? "MISSING" : names.joined(separator: ", "))")
        }
        let covered = RuleCatalogue.rules.count - missing.count
        lines.append("")
        lines.append("\(covered) of \(RuleCatalogue.rules.count) rules covered by \(fixtures.count) fixtures"
            + (missing.isEmpty ? "" : "; no fixture for \(missing.joined(separator: ", "))"))
        return (lines.joined(separator: "\n"), missing)
    }

    /// `xfail`, or `xfail on msync, through easemob` when every mark holds only somewhere.
    static func xfail(_ marks: [ExpectedFailure]) -> String {
        let scopes = marks.map { mark in
            [mark.transport.map { "on \($0.rawValue)" }, mark.adapter.map { "through \($0)" }].compactMap { $0 }.joined(separator: " ")
        }
        guard !scopes.contains("") else { return "xfail" }
        var seen: Set<String> = []
        return "xfail " + scopes.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }
}

extension String {
    /// Left-aligned in `width` columns.
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
