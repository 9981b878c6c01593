/// Progress of a long operation for a person watching: `report(done:)` is cheap to call on
/// every step and passes a line to the sink at most once per interval (and always for the last
/// step), with the share done and the rate; nothing for operations shorter than one interval.
public struct ProgressReporter {
    /// What is being done, e.g. `seed: hashing passwords`.
    public let title: String
    /// The number of steps.
    public let total: Int
    private let interval: Duration
    private let sink: (String) -> Void
    private let started = ContinuousClock.now
    private var lastReport: ContinuousClock.Instant

    /// A reporter of `total` steps writing lines to `sink` at most every `interval`.
    public init(title: String, total: Int, interval: Duration = .seconds(1), sink: @escaping (String) -> Void) {
        self.title = title
        self.total = total
        self.interval = interval
        self.sink = sink
        self.lastReport = started
    }

    /// Notes that `done` steps are complete.
    public mutating func report(done: Int) {
        let now = ContinuousClock.now
        let finished = done >= total
        guard now - lastReport >= interval || (finished && now - started >= interval) else { return }
        lastReport = now
        sink(Self.line(title: title, done: done, total: total, elapsed: now - started))
    }

    /// `seed: hashing passwords 4,200/10,000 (42%), 2,100/s`.
    public static func line(title: String, done: Int, total: Int, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let percent = total > 0 ? done * 100 / total : 100
        let rate = seconds > 0 ? Int((Double(done) / seconds).rounded()) : done
        return "\(title) \(grouped(done))/\(grouped(total)) (\(percent)%), \(grouped(rate))/s"
    }

    /// `12345` → `12,345`.
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
