import IMockCore

/// Checks one expectation against the callbacks of its window. Pure: the same window gives the
/// same verdict, so the matchers can be tested (and mutated) without a server.
public enum ExpectationEvaluator {
    /// Nil when `kind` holds for `window` (callbacks in sequence order); otherwise the first
    /// divergence. `startMs` is the scenario's start (for `at` and the times shown).
    public static func check(_ kind: ExpectationKind, window: [ObservedCallback], startMs: Int64) -> ScenarioFailure? {
        switch kind {
        case .sequence(let device, let patterns, let gaps, let complete):
            return sequence(device, patterns, gaps: gaps, complete: complete, window, startMs)
        case .unordered(let patterns):
            return unordered(patterns, window, startMs)
        case .order(let patterns):
            return order(patterns, window, startMs)
        case .absent(let patterns, _):
            let found = window.filter { callback in patterns.contains { matches($0, callback, startMs) } }
            guard !found.isEmpty else { return nil }
            return ScenarioFailure(
                "a callback that must not happen happened", expected: patterns.map { "no " + $0.summary },
                observed: found.map { line($0, startMs) }, device: found[0].device)
        case .state, .sent:
            return nil  // checked against the device or the server, not the window
        }
    }

    /// Whether `callback` matches `pattern`.
    public static func matches(_ pattern: CallbackPattern, _ callback: ObservedCallback, _ startMs: Int64) -> Bool {
        callback.device == pattern.device && callback.name == pattern.name
            && pattern.arguments.allSatisfy { $0.matcher.matches(callback.argument($0.name)) }
            && (pattern.at?.matches(.int(callback.timeMs - startMs)) ?? true)
    }

    /// `#12 +48m phone: tokenWillExpire(errorCode: 109)`.
    public static func line(_ callback: ObservedCallback, _ startMs: Int64) -> String {
        "#\(callback.sequence) +\(DurationText.format(callback.timeMs - startMs)) \(callback.device): \(callback.summary)"
    }

    private static func sequence(
        _ device: String, _ patterns: [CallbackPattern], gaps: Bool, complete: Bool, _ window: [ObservedCallback], _ startMs: Int64
    ) -> ScenarioFailure? {
        let records = window.filter { $0.device == device }
        var best: (matched: Int, positions: [Int]) = (0, [])
        if gaps || complete {
            // The earliest embedding: it exists whenever any does.
            var positions: [Int] = []
            var index = 0
            for pattern in patterns {
                guard let found = records[index...].firstIndex(where: { matches(pattern, $0, startMs) }) else { break }
                positions.append(found)
                index = found + 1
            }
            best = (positions.count, positions)
            if complete, positions.count == patterns.count {
                return extraCallbacks(device, patterns, records, positions: positions, startMs)
            }
        } else {
            for start in records.indices {
                var count = 0
                while count < patterns.count, start + count < records.count, matches(patterns[count], records[start + count], startMs) {
                    count += 1
                }
                if count > best.matched { best = (count, Array(start..<start + count)) }
                if count == patterns.count { break }
            }
        }
        guard best.matched < patterns.count else { return nil }
        let missing = patterns[best.matched]
        let after = best.positions.last.map { records[$0] }
        let rest = after.map { last in records.filter { $0.sequence > last.sequence } } ?? records
        let expected = patterns.enumerated().map { index, pattern in
            (index < best.matched ? "✓ " : index == best.matched ? "✗ " : "  ") + pattern.summary
        }
        let how = gaps ? "" : " right after"
        let message = after.map { "expected \(missing.summary)\(how) \($0.name) (#\($0.sequence))" }
            ?? "expected \(missing.summary)"
        return ScenarioFailure(
            message + (rest.isEmpty ? ", but \(device) had no further callback" : ""), expected: expected,
            observed: ObservedExcerpt.lines(
                rest.isEmpty ? records : rest, highlighted: ObservedExcerpt.nearMisses(of: [missing], in: records, startMs: startMs),
                startMs: startMs),
            device: device)
    }

    /// The failure of a `complete` sequence whose every pattern matched at `positions` of
    /// `records` (nil when there is nothing else): names the first callback besides them and
    /// where it came.
    private static func extraCallbacks(
        _ device: String, _ patterns: [CallbackPattern], _ records: [ObservedCallback], positions: [Int], _ startMs: Int64
    ) -> ScenarioFailure? {
        let expectedAt = Set(positions)
        let extras = records.indices.filter { !expectedAt.contains($0) }
        guard let first = extras.first else { return nil }
        let before = positions.last { $0 < first }.map { records[$0] }
        let after = positions.first { $0 > first }.map { records[$0] }
        let place: String
        switch (before, after) {
        case (let before?, let after?): place = "between \(before.name) (#\(before.sequence)) and \(after.name) (#\(after.sequence))"
        case (let before?, nil): place = "after \(before.name) (#\(before.sequence)), the last expected callback"
        case (nil, let after?): place = "before \(after.name) (#\(after.sequence)), the first expected callback"
        case (nil, nil): place = "with none expected"
        }
        let count = extras.count == 1 ? "a callback" : "\(extras.count) callbacks"
        return ScenarioFailure(
            "\(device) had \(count) besides the expected sequence (complete: true): \(line(records[first], startMs)) came \(place)",
            expected: patterns.map { "✓ " + $0.summary },
            observed: ObservedExcerpt.lines(
                records, highlighted: extras.map { .init(sequence: records[$0].sequence, note: "not expected (complete: true)") },
                startMs: startMs),
            device: device)
    }

    private static func unordered(_ patterns: [CallbackPattern], _ window: [ObservedCallback], _ startMs: Int64) -> ScenarioFailure? {
        var used: Set<UInt64> = []
        var missing: [CallbackPattern] = []
        for pattern in patterns {
            if let found = window.first(where: { !used.contains($0.sequence) && matches(pattern, $0, startMs) }) {
                used.insert(found.sequence)
            } else {
                missing.append(pattern)
            }
        }
        guard let first = missing.first else { return nil }
        let devices = Set(patterns.map(\.device))
        return ScenarioFailure(
            "expected \(first.summary)" + (missing.count > 1 ? " and \(missing.count - 1) more" : ""),
            expected: patterns.map { pattern in (missing.contains { $0.summary == pattern.summary } ? "✗ " : "✓ ") + pattern.summary },
            observed: ObservedExcerpt.lines(
                window.filter { devices.contains($0.device) }, highlighted: ObservedExcerpt.nearMisses(of: missing, in: window, startMs: startMs),
                startMs: startMs),
            device: first.device)
    }

    private static func order(_ patterns: [CallbackPattern], _ window: [ObservedCallback], _ startMs: Int64) -> ScenarioFailure? {
        var previous: (CallbackPattern, ObservedCallback)?
        for pattern in patterns {
            guard let found = window.first(where: { matches(pattern, $0, startMs) }) else {
                let devices = Set(patterns.map(\.device))
                return ScenarioFailure(
                    "expected \(pattern.summary), which never happened", expected: patterns.map(\.summary),
                    observed: ObservedExcerpt.lines(
                        window.filter { devices.contains($0.device) },
                        highlighted: ObservedExcerpt.nearMisses(of: [pattern], in: window, startMs: startMs), startMs: startMs),
                    device: pattern.device)
            }
            if let (earlierPattern, earlier) = previous, earlier.sequence >= found.sequence {
                return ScenarioFailure(
                    "\(earlierPattern.summary) must happen before \(pattern.summary), but came after it",
                    expected: patterns.map(\.summary), observed: [line(found, startMs), line(earlier, startMs)],
                    device: pattern.device)
            }
            previous = (pattern, found)
        }
        return nil
    }
}
