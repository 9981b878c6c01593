/// Why a policy could not be built or applied.
public enum LoginPolicyError: Error, Sendable, Hashable {
    /// The default per-group device limit is negative.
    case negativeDefaultDeviceLimit(Int)
    /// A group's device limit is negative.
    case negativeDeviceLimit(EasemobPlatformGroup, Int)
    /// A per-custom-platform limit names a custom OS type outside 1–100.
    case customGroupOutOfRange(Int)
    /// An OpenIM `multiLogin.policy` other than 0, 1, 4, 5 (OpenIM: "unknown multiLogin policy").
    case unknownOpenIMPolicy(Int)
    /// The new login's platform belongs to the other vendor family than the app's policy.
    case platformFamilyMismatch(DevicePlatform)
}
