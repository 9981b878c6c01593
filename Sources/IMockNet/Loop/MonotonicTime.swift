#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims
import IMockCommon

/// A point on the monotonic clock, in nanoseconds since an arbitrary origin.
///
/// Used for every I/O deadline (header, idle, back-off) so that changes of the wall clock
/// never fire or delay a timer.
public struct MonotonicInstant: Sendable, Hashable, Comparable {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The current time on `CLOCK_MONOTONIC`.
    public static func now() -> MonotonicInstant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// `lhs` moved by `rhs`, saturating at the ends of the range (a deadline decades away is
    /// simply never reached).
    public static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: lhs.nanoseconds.clampedAdding(rhs.nanoseconds))
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return product + attoseconds / 1_000_000_000
    }

    /// The duration in whole milliseconds (saturating).
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }
}
