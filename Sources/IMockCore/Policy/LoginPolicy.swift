/// An app's multi-device login policy, in one vendor's model.
public enum LoginPolicy: Sendable, Hashable {
    /// Easemob / Agora Chat: device limits per group or single-device mode.
    case easemob(EasemobLoginPolicy)
    /// OpenIM `multiLogin.policy`.
    case openIM(OpenIMMultiLoginPolicy)

    /// Easemob multi-device, 4 per group, keep-current-device off.
    public static let easemobDefault = LoginPolicy.easemob(EasemobLoginPolicy())
}

/// What Easemob's single-device mode does with a second device.
public enum EasemobSingleDeviceRule: Sendable, Hashable {
    /// The new login kicks the old device with 206.
    case newKicksOld
    /// "First device wins": the newcomer is refused with 213.
    case firstDeviceWins
}

/// Easemob's multi-device switch ("多端多设备在线").
public enum EasemobLoginMode: Sendable, Hashable {
    /// Several devices per group, up to the limits; a login over a limit kicks the earliest
    /// device of the same group with 206.
    case multiDevice(EasemobDeviceLimits)
    /// One device for the whole account.
    case singleDevice(EasemobSingleDeviceRule)
}

/// An Easemob app's login policy.
public struct EasemobLoginPolicy: Sendable, Hashable {
    /// Multi- or single-device.
    public var mode: EasemobLoginMode
    /// The (sales-enabled) "keep the current device" switch: an auto-login that would kick is
    /// refused instead, with 214 (multi-device) or 220 (single-device, device changed).
    public var keepCurrentDevice: Bool

    /// Creates a policy; the default is multi-device with 4 per group and the switch off.
    public init(mode: EasemobLoginMode = .multiDevice(.standard), keepCurrentDevice: Bool = false) {
        self.mode = mode
        self.keepCurrentDevice = keepCurrentDevice
    }
}

/// OpenIM's `multiLogin.policy` values implemented at HEAD (reference openim-zim.md A3; 2, 3 and
/// 6 were removed). Enforced here at WebSocket connect.
public enum OpenIMMultiLoginPolicy: Int, Sendable, Hashable, CaseIterable {
    /// 0 `DefalutNotKick`: no kicking at connect.
    case defaultNotKick = 0
    /// 1 `AllLoginButSameTermKick` (OpenIM's default): a login kicks the connections of the same
    /// platform id that use another token.
    case allLoginButSameTermKick = 1
    /// 4 `AllLoginButSameClassKick`: a login kicks the connections of the same platform class
    /// that use another token.
    case allLoginButSameClassKick = 4
    /// 5 `PCAndOther`: a PC login kicks nothing; any other login kicks every non-PC connection
    /// that uses another token.
    case pcAndOther = 5

    /// Creates the policy from its configured number, throwing for anything but 0, 1, 4, 5.
    public init(policyValue: Int) throws(LoginPolicyError) {
        guard let policy = OpenIMMultiLoginPolicy(rawValue: policyValue) else {
            throw .unknownOpenIMPolicy(policyValue)
        }
        self = policy
    }
}
