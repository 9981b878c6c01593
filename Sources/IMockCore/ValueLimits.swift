import IMockCommon

/// The ranges integers from outside (REST, control API, frames, seeds) must fall in, chosen so
/// that every sum imock computes with them (a deadline, a next id) stays far from `Int64`'s ends.
public enum ValueLimits {
    /// The latest instant imock's clock and timestamps reach: 9999-12-31T23:59:59.999Z.
    public static let maximumEpochMs: Int64 = Timeline.maximumMs
    /// The longest duration accepted from outside: 100 years in milliseconds.
    public static let maximumDurationMs: Int64 = 100 * 365 * 24 * 3600 * 1000
    /// The largest id, sequence or counter: 2⁵³ − 1, exact in every JSON implementation.
    public static let maximumCounter: Int64 = 9_007_199_254_740_991

    /// Epoch milliseconds: 0 … ``maximumEpochMs``.
    public static let epochMs: ClosedRange<Int64> = 0...maximumEpochMs
    /// A duration in milliseconds: 0 … ``maximumDurationMs``.
    public static let durationMs: ClosedRange<Int64> = 0...maximumDurationMs
    /// An id, sequence or counter: 0 … ``maximumCounter``.
    public static let counter: ClosedRange<Int64> = 0...maximumCounter
    /// A count or limit that becomes an `Int` (array sizes, device limits): 0 … `Int32.max`.
    public static let count: ClosedRange<Int64> = 0...Int64(Int32.max)
}
