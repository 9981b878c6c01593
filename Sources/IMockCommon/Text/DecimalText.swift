/// Numbers as text without Foundation's formatters.
public enum DecimalText {
    /// `value` with exactly `digits` decimals (0…9), rounded to nearest (or by `rule`):
    /// `fixed(0.4567, digits: 2)` → `0.46`, `fixed(-1.5, digits: 0)` → `-2`.
    public static func fixed(_ value: Double, digits: Int, rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> String {
        precondition((0...9).contains(digits), "0...9 decimals")
        guard value.isFinite else { return String(value) }
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * Double(scale)).rounded(rule)
        guard abs(scaled) < 9.0e18 else { return String(value) }
        let units = Int64(scaled)
        let magnitude = units.magnitude
        let whole = magnitude / UInt64(scale)
        let sign = units < 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let fraction = String(magnitude % UInt64(scale))
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
