/// How many devices of each Easemob group may be logged in at once (reference easemob.md §3.1:
/// default 4 per end, custom platforms configurable).
///
/// A limit of 0 closes the group: every login to it is refused with 214.
public struct EasemobDeviceLimits: Sendable, Hashable {
    /// Easemob's default per-group limit.
    public static let easemobDefault = 4
    /// Four devices in every group, custom platforms included.
    public static let standard = EasemobDeviceLimits(checkedDefault: easemobDefault, overrides: [:])

    /// The limit of every group without an override.
    public let defaultLimit: Int
    /// Per-group limits; `.custom(n)` keys configure one custom platform.
    public let overrides: [EasemobPlatformGroup: Int]

    /// Creates limits, throwing for negative limits or custom keys outside 1–100.
    public init(
        defaultLimit: Int = EasemobDeviceLimits.easemobDefault,
        overrides: [EasemobPlatformGroup: Int] = [:]
    ) throws(LoginPolicyError) {
        guard defaultLimit >= 0 else { throw .negativeDefaultDeviceLimit(defaultLimit) }
        // Sorted so that the error for several bad entries does not depend on dictionary order.
        for (group, limit) in overrides.sorted(by: { Self.sortKey($0.key) < Self.sortKey($1.key) }) {
            if case .custom(let type) = group, !EasemobPlatform.customOSTypes.contains(type) {
                throw .customGroupOutOfRange(type)
            }
            guard limit >= 0 else { throw .negativeDeviceLimit(group, limit) }
        }
        self.init(checkedDefault: defaultLimit, overrides: overrides)
    }

    private init(checkedDefault: Int, overrides: [EasemobPlatformGroup: Int]) {
        self.defaultLimit = checkedDefault
        self.overrides = overrides
    }

    /// The limit that applies to `group`.
    public func limit(for group: EasemobPlatformGroup) -> Int {
        overrides[group] ?? defaultLimit
    }

    private static func sortKey(_ group: EasemobPlatformGroup) -> Int {
        switch group {
        case .mobile: -4
        case .desktop: -3
        case .web: -2
        case .linux: -1
        case .custom(let type): type
        }
    }
}
