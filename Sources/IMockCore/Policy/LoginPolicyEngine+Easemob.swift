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
            let inGroup = slots.others.filter { $0.device.easemobGroup == group }
            let excess = inGroup.count + 1 - limit
            let victims = excess > 0 ? Array(inGroup.prefix(excess)) : []
            if keepRefuses, !victims.isEmpty || slots.hasConflictFromOtherDevice {
                return .refuse(.tooManyDevices)
            }
            return .kick(victims, slots)
        case .singleDevice(.firstDeviceWins):
            if !slots.others.isEmpty || slots.hasConflictFromOtherDevice {
                return .refuse(.boundToAnotherDevice)
            }
            return .kick([], slots)
        case .singleDevice(.newKicksOld):
            let victims = slots.others
            if keepRefuses {
                let latestLive = chronological(
                    slots.others + slots.conflicts + (slots.replaceable.map { [$0] } ?? [])
                ).last
                let last = attempt.lastLoginDevice ?? latestLive?.device.identity
                let deviceChanged = last.map { $0 != attempt.device.identity } ?? false
                if deviceChanged || !victims.isEmpty || slots.hasConflictFromOtherDevice {
                    return .refuse(.deviceChanged)
                }
            }
            return .kick(victims, slots)
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
