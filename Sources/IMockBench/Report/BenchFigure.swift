import IMockCommon

/// One measured number of a scenario part.
public struct BenchFigure: Sendable, Equatable {
    /// Which way is better, for ratios against a baseline; nil for a plain count.
    public enum Better: String, Sendable {
        case higher
        case lower
    }

    /// The member name in JSON, e.g. `perSecond`, `p99Ms`.
    public var key: String
    /// The label in the table, e.g. `logins/s`, `p99 ms`.
    public var label: String
    public var value: Double
    public var better: Better?

    public init(key: String, label: String, value: Double, better: Better?) {
        self.key = key
        self.label = label
        self.value = value
        self.better = better
    }

    /// A rate: `what`/s, higher is better.
    static func rate(_ value: Double, _ what: String) -> BenchFigure {
        BenchFigure(key: "perSecond", label: "\(what)/s", value: value, better: .higher)
    }

    /// A latency percentile in milliseconds, lower is better.
    static func latency(_ percentile: Int, _ value: Double) -> BenchFigure {
        BenchFigure(key: "p\(percentile)Ms", label: "p\(percentile) ms", value: value, better: .lower)
    }

    /// A count (informative).
    static func count(_ key: String, _ value: Int) -> BenchFigure {
        BenchFigure(key: key, label: key, value: Double(value), better: nil)
    }

    /// The three figures of a timed batch: the rate and the p50/p99 of `samples`.
    static func timed(_ samples: Samples, perSecond: Double, _ what: String) -> [BenchFigure] {
        [.rate(perSecond, what), .latency(50, samples.p50), .latency(99, samples.p99)]
    }

    /// The value as the table shows it: grouped thousands, or two decimals below 100.
    var formatted: String { Self.format(value) }

    static func format(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "-" }
        if abs(value) < 100, value != value.rounded() { return DecimalText.fixed(value, digits: 2) }
        return ProgressReporter.grouped(Int(value.rounded()))
    }
}

/// One measured part of a scenario (a variant or a step), e.g. `login-storm` `tls`.
public struct BenchPart: Sendable, Equatable {
    public var name: String
    public var figures: [BenchFigure]
    /// What a reader should know about this measurement (a shortfall, what was skipped).
    public var notes: [String]

    public init(name: String, figures: [BenchFigure], notes: [String] = []) {
        self.name = name
        self.figures = figures
        self.notes = notes
    }

    /// The figure with `key`.
    public func figure(_ key: String) -> BenchFigure? { figures.first { $0.key == key } }
}
