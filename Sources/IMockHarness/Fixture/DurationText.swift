/// Durations in fixtures: `"55m"`, `"1h30m"`, `"20s"`, `"1500ms"`, `"7d"`, or an integer of ms.
public enum DurationText {
    private static let units: [(suffix: String, ms: Int64)] = [
        ("ms", 1), ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000),
    ]

    /// The milliseconds of `text`, nil when it is not a duration.
    public static func parse(_ text: String) -> Int64? {
        var rest = Substring(text)
        var total: Int64 = 0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let value = Int64(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = units.first(where: { rest.hasPrefix($0.suffix) }) else { return nil }
            rest = rest.dropFirst(unit.suffix.count)
            let (product, overflow) = value.multipliedReportingOverflow(by: unit.ms)
            guard !overflow, total <= Int64.max - product else { return nil }
            total += product
        }
        return total
    }

    /// `ms` in the shortest exact form: `55m`, `1h30m`, `20s`, `1500ms` → `1s500ms`.
    public static func format(_ ms: Int64) -> String {
        guard ms != 0 else { return "0s" }
        var rest = abs(ms)
        var text = ms < 0 ? "-" : ""
        for unit in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)] where rest >= unit.1 {
            text += "\(rest / unit.1)\(unit.0)"
            rest %= unit.1
        }
        return text
    }
}
