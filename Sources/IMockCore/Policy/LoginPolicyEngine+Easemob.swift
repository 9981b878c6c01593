extension LoginPolicyEngine {
    /// Easemob rules (reference easemob.md §3.1, seed `000 § 多设备登录`):
    /// - multi-device: a group with limit 0 refuses with 214; over the limit, the earliest
    ///   devices of the same group are kicked (206) until the newcomer fits; other groups are
    ///   never touched. Keep-current-device turns an auto-login that would kick into 214.
    /// - single-device, new kicks old: every other device is kicked (206). Keep-current-device
    ///   refuses an auto-login with 220 when it would kick, or when the last login's device
    ///   (`lastLoginDevice`, else the latest live session) is another device.
    /// - single-device, first device wins: any other live device refuses the newcomer with 213.
    static func easemobOutcome(
        _ policy: EasemobLoginPolicy,
        platform: EasemobPlatform,
        attempt: LoginAttempt,
        slots: SlotPartition
    ) -> PolicyOutcome {
        let keepRefuses = policy.keepCurrentDevice && attempt.isAutoLogin
        switch policy.mode {
        case .multiDevice(let limits):
            let group = platform.group
            let limit = limits.limit(for: group)
            guard limit > 0 else { return .refuse(.tooManyDevices) }
            let inGroup: (DeviceBucket) -> Bool = { $0 == .easemob(group) }
            let excess = slots.otherCount(inBuckets: inGroup) + 1 - limit
            let victims = excess > 0 ? slots.others(inBuckets: inGroup, limit: excess) : []
            if keepRefuses, !victims.isEmpty || slots.hasConflictFromOtherDevice {
                return .refuse(.tooManyDevices)
            }
            return .kick(victims, slots)
        case .singleDevice(.firstDeviceWins):
            if slots.hasOthers || slots.hasConflictFromOtherDevice {
                return .refuse(.boundToAnotherDevice)
            }
            return .kick([], slots)
        case .singleDevice(.newKicksOld):
            if keepRefuses {
                let last = attempt.lastLoginDevice ?? slots.latest?.device.identity
                let deviceChanged = last.map { $0 != attempt.device.identity } ?? false
                if deviceChanged || slots.hasOthers || slots.hasConflictFromOtherDevice {
                    return .refuse(.deviceChanged)
                }
            }
            return .kick(slots.others(inBuckets: { _ in true }), slots)
        }
    }
}

extension LoginDevice {
    /// The Easemob group, or nil for an OpenIM device.
    var easemobGroup: EasemobPlatformGroup? {
        if case .easemob(let platform) = platform { return platform.group }
        return nil
    }
}
