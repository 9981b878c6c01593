extension Int64 {
    /// `self + other`, clamped to `Int64`'s range instead of trapping: deadlines built from
    /// values that came from outside stay ordered and never crash the process.
    public func clampedAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, clamped to `Int64`'s range instead of trapping.
    public func clampedSubtracting(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other > 0 ? .min : .max
    }
}
