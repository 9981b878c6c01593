/// A per-app fixed one-second window counter for the REST rate limit (429 `reach_limit`).
///
/// Kept apart from the ``Directory`` so that counting requests is not a change of stored state.
public struct RateLimiter: Sendable, Equatable {
    private var windows: [AppKey: (second: Int64, count: Int)] = [:]

    /// Creates a limiter with no history.
    public init() {}

    /// Counts one request of `app` at `nowMs`; false when it exceeds `limitPerSecond`
    /// requests in the current whole second (`floor(nowMs / 1000)`). A nil limit always admits.
    public mutating func admit(_ app: AppKey, limitPerSecond: Int?, nowMs: Int64) -> Bool {
        guard let limit = limitPerSecond else { return true }
        let second = nowMs >= 0 ? nowMs / 1000 : (nowMs - 999) / 1000
        var window = windows[app] ?? (second: second, count: 0)
        if window.second != second { window = (second: second, count: 0) }
        guard window.count < limit else { return false }
        window.count += 1
        windows[app] = window
        return true
    }

    public static func == (lhs: RateLimiter, rhs: RateLimiter) -> Bool {
        lhs.windows.count == rhs.windows.count
            && lhs.windows.allSatisfy { key, value in
                rhs.windows[key].map { $0.second == value.second && $0.count == value.count } ?? false
            }
    }
}
