import IMockCore

/// The kicks the Web SDK knows as `STATISTIC` operations (reference easemob.md §4.4).
public enum MsyncKick {
    /// The operation for a kick code: 207 → USER_REMOVED, 206 → USER_LOGIN_ANOTHER_DEVICE,
    /// 216 → USER_KICKED_BY_CHANGE_PASSWORD, 217 → USER_KICKED_BY_OTHER_DEVICE; nil otherwise.
    public static func operation(forCode code: Int) -> MsyncPB.StatisticsBody.Operation? {
        switch code {
        case KickCode.userRemoved.rawValue: .userRemoved
        case KickCode.loggedInOnAnotherDevice.rawValue: .userLoginAnotherDevice
        case KickCode.kickedByPasswordChange.rawValue: .userKickedByChangePassword
        case KickCode.kickedByOtherDevice.rawValue: .userKickedByOtherDevice
        default: nil
        }
    }

    /// The kick code of an operation (the reference client's reading); nil for INFORMATION.
    public static func code(of operation: MsyncPB.StatisticsBody.Operation) -> Int? {
        switch operation {
        case .userRemoved: KickCode.userRemoved.rawValue
        case .userLoginAnotherDevice: KickCode.loggedInOnAnotherDevice.rawValue
        case .userKickedByChangePassword: KickCode.kickedByPasswordChange.rawValue
        case .userKickedByOtherDevice: KickCode.kickedByOtherDevice.rawValue
        case .information, .unrecognized: nil
        }
    }
}
