extension LoginPolicyEngine {
    /// OpenIM rules at WebSocket connect (gateway `multiTerminalLoginChecker`, reference
    /// openim-zim.md A3). A connection using the newcomer's token is never kicked, and the Admin
    /// platform (10) neither kicks nor is kicked. OpenIM never refuses a login for the policy.
    /// - 0: nothing is kicked.
    /// - 1: connections of the same platform id are kicked.
    /// - 4: connections of the same platform class are kicked.
    /// - 5: a PC-class login kicks nothing; any other kicks every non-PC connection.
    /// Kicked connections get 2002; the server must also mark their tokens Kicked (1506).
    static func openIMOutcome(
        _ policy: OpenIMMultiLoginPolicy,
        platform: OpenIMPlatform,
        device: LoginDevice,
        slots: SlotPartition
    ) -> PolicyOutcome {
        guard platform != .admin else { return .kick([], slots) }
        let kicked: (OpenIMPlatform) -> Bool
        switch policy {
        case .defaultNotKick:
            return .kick([], slots)
        case .allLoginButSameTermKick:
            kicked = { $0 == platform }
        case .allLoginButSameClassKick:
            kicked = { $0.platformClass == platform.platformClass }
        case .pcAndOther:
            guard platform.platformClass != .pc else { return .kick([], slots) }
            kicked = { $0.platformClass != .pc }
        }
        let victims = slots.others(
            inBuckets: { bucket in
                guard case .openIM(let other) = bucket, other != .admin else { return false }
                return kicked(other)
            },
            where: { $0.device.tokenID != device.tokenID })
        return .kick(victims, slots)
    }
}

extension LoginDevice {
    /// The OpenIM platform, or nil for an Easemob device.
    var openIMPlatform: OpenIMPlatform? {
        if case .openIM(let platform) = platform { return platform }
        return nil
    }
}
