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
        let candidates: [(session: LiveSession, platform: OpenIMPlatform)] = slots.others.compactMap {
            guard let other = $0.device.openIMPlatform, other != .admin,
                $0.device.tokenID != device.tokenID
            else { return nil }
            return ($0, other)
        }
        let victims: [LiveSession]
        switch policy {
        case .defaultNotKick:
            victims = []
        case .allLoginButSameTermKick:
            victims = candidates.filter { $0.platform == platform }.map(\.session)
        case .allLoginButSameClassKick:
            victims = candidates.filter { $0.platform.platformClass == platform.platformClass }
                .map(\.session)
        case .pcAndOther:
            victims = platform.platformClass == .pc
                ? [] : candidates.filter { $0.platform.platformClass != .pc }.map(\.session)
        }
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
