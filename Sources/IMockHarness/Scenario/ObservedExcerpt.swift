/// The "observed" lines of a failure: the callbacks that explain it first — the near misses of
/// what was expected (the same callback name, or the same device with some of the expected
/// arguments), or the callbacks that broke it — then the others in sequence order, at most
/// ``limit`` lines and a last line counting what was left out.
public enum ObservedExcerpt {
    /// The most callbacks one failure lists.
    public static let limit = 16

    /// A callback to list first, with the note shown after it (`◀ near miss of …`).
    public struct Highlight: Sendable {
        /// The callback's global sequence.
        public var sequence: UInt64
        /// Why it is listed first.
        public var note: String
    }

    /// Lines for `callbacks`: the `highlighted` ones first, in the given order, then the others
    /// in sequence order; at most ``limit``, then `… N more callbacks not shown`.
    public static func lines(_ callbacks: [ObservedCallback], highlighted: [Highlight] = [], startMs: Int64) -> [String] {
        let bySequence = Dictionary(callbacks.map { ($0.sequence, $0) }, uniquingKeysWith: { first, _ in first })
        var listed: Set<UInt64> = []
        var lines: [String] = []
        for highlight in highlighted where !listed.contains(highlight.sequence) {
            guard let callback = bySequence[highlight.sequence] else { continue }
            listed.insert(highlight.sequence)
            lines.append(ExpectationEvaluator.line(callback, startMs) + "   ◀ " + highlight.note)
        }
        for callback in callbacks where !listed.contains(callback.sequence) {
            listed.insert(callback.sequence)
            lines.append(ExpectationEvaluator.line(callback, startMs))
        }
        guard lines.count > limit else { return lines }
        return Array(lines.prefix(limit)) + ["… \(lines.count - limit) more callbacks not shown"]
    }

    /// The near misses of `patterns` among `callbacks`, nearest first: a callback of the
    /// expected name (on the expected device before others, with more matching arguments before
    /// fewer), or one of the expected device whose arguments match some of those expected.
    public static func nearMisses(of patterns: [CallbackPattern], in callbacks: [ObservedCallback], startMs: Int64) -> [Highlight] {
        var ranked: [(rank: (Int, Int, Int), sequence: UInt64, note: String)] = []
        for callback in callbacks {
            var best: (rank: (Int, Int, Int), pattern: CallbackPattern)?
            for pattern in patterns where !ExpectationEvaluator.matches(pattern, callback, startMs) {
                let sameName = callback.name == pattern.name ? 1 : 0
                let sameDevice = callback.device == pattern.device ? 1 : 0
                let arguments = pattern.arguments.filter { $0.matcher.matches(callback.argument($0.name)) }.count
                guard sameName == 1 || (sameDevice == 1 && arguments > 0) else { continue }
                let rank = (sameName, sameDevice, arguments)
                if best.map({ rank > $0.rank }) ?? true { best = (rank, pattern) }
            }
            if let best { ranked.append((best.rank, callback.sequence, "near miss of \(best.pattern.summary)")) }
        }
        return ranked.sorted { $0.rank != $1.rank ? $0.rank > $1.rank : $0.sequence < $1.sequence }
            .map { Highlight(sequence: $0.sequence, note: $0.note) }
    }
}
