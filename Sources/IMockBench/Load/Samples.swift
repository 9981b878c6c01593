/// Latencies in milliseconds and their percentiles (nearest rank).
struct Samples: Sendable {
    private(set) var values: [Double] = []

    init() {}

    mutating func add(_ milliseconds: Double) { values.append(milliseconds) }

    var count: Int { values.count }

    /// The `p`-th percentile (0…100), 0 when there is no sample.
    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }

    var p50: Double { percentile(50) }
    var p99: Double { percentile(99) }
    var max: Double { values.max() ?? 0 }
}
