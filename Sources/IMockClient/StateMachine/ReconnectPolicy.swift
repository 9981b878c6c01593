/// The automatic reconnect back-off (C2, C9, O6, O7, Z2): how long to wait before reconnect
/// attempt `n` (1-based). Only recoverable drops reconnect; kicks and token errors never do.
public struct ReconnectPolicy: Sendable, Equatable {
    /// One band of the schedule: attempts up to `throughAttempt` wait `minMs…maxMs`.
    public struct Step: Sendable, Equatable {
        /// The last attempt of this band; nil for "every later attempt".
        public var throughAttempt: Int?
        /// The shortest wait, ms.
        public var minMs: Int64
        /// The longest wait, ms (equal to `minMs` for a fixed wait).
        public var maxMs: Int64

        /// Creates a band.
        public init(throughAttempt: Int?, minMs: Int64, maxMs: Int64) {
            self.throughAttempt = throughAttempt
            self.minMs = minMs
            self.maxMs = max(minMs, maxMs)
        }
    }

    /// The bands, in order.
    public var steps: [Step]
    /// True: attempt `n` uses `steps[(n - 1) % steps.count]` (OpenIM's 1, 2, 4, 8, 16 s cycle).
    public var cycles: Bool
    /// After this many failed attempts the client gives up (Z2); nil: never.
    public var maxAttempts: Int?
    /// Fixed waits of the first reconnects, in order, whatever their attempt number; later ones
    /// use the bands. A recorded session's waits, so that its replay reconnects when the
    /// recorded device did (docs/RECORD.md § Export).
    public var waits: [Int64] = []

    /// Creates a policy.
    public init(steps: [Step], cycles: Bool = false, maxAttempts: Int? = nil, waits: [Int64] = []) {
        self.steps = steps
        self.cycles = cycles
        self.maxAttempts = maxAttempts
        self.waits = waits
    }

    /// Easemob: 1–2 s for attempts 1–5, 3–6 s up to 19, 5–10 s after.
    public static let easemob = ReconnectPolicy(steps: [
        Step(throughAttempt: 5, minMs: 1000, maxMs: 2000),
        Step(throughAttempt: 19, minMs: 3000, maxMs: 6000),
        Step(throughAttempt: nil, minMs: 5000, maxMs: 10000),
    ])

    /// OpenIM: 1, 2, 4, 8, 16 s, then again from 1 s.
    public static let openIM = ReconnectPolicy(
        steps: [1000, 2000, 4000, 8000, 16000].map { Step(throughAttempt: nil, minMs: $0, maxMs: $0) }, cycles: true)

    /// The wait before attempt `attempt` (1-based); `unit` in 0..<1 picks the point in the band
    /// (the jitter; the state machine draws it from its seeded generator).
    public func delayMs(attempt: Int, unit: Double) -> Int64 {
        guard let step = step(for: attempt) else { return 0 }
        let clamped = min(max(unit, 0), 1)
        return step.minMs + Int64((Double(step.maxMs - step.minMs) * clamped).rounded(.down))
    }

    private func step(for attempt: Int) -> Step? {
        guard !steps.isEmpty else { return nil }
        let attempt = max(attempt, 1)
        if cycles { return steps[(attempt - 1) % steps.count] }
        return steps.first { ($0.throughAttempt ?? Int.max) >= attempt } ?? steps.last
    }
}
