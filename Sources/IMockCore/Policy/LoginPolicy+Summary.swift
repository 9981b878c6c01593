extension LoginPolicy {
    /// The policy in a few words, for the start-up banner and listings:
    /// `easemob multi-device, 4 per group`, `easemob single-device, first device wins, keep current device`,
    /// `openim 1 AllLoginButSameTermKick`.
    public var summary: String {
        switch self {
        case .easemob(let policy):
            var words: String
            switch policy.mode {
            case .multiDevice(let limits):
                words = "easemob multi-device, \(limits.defaultLimit) per group"
                if !limits.overrides.isEmpty { words += " (\(limits.overrides.count) overridden)" }
            case .singleDevice(.newKicksOld):
                words = "easemob single-device, new kicks old"
            case .singleDevice(.firstDeviceWins):
                words = "easemob single-device, first device wins"
            }
            return policy.keepCurrentDevice ? words + ", keep current device" : words
        case .openIM(let policy):
            let names: [OpenIMMultiLoginPolicy: String] = [
                .defaultNotKick: "DefalutNotKick", .allLoginButSameTermKick: "AllLoginButSameTermKick",
                .allLoginButSameClassKick: "AllLoginButSameClassKick", .pcAndOther: "PCAndOther",
            ]
            return "openim \(policy.rawValue) \(names[policy] ?? "")"
        }
    }
}
