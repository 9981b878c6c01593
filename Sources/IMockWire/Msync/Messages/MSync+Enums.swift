extension MsyncPB.MSync {
    /// `MSync.Version`.
    public enum Version: ProtobufEnum {
        /// `MSYNC_V1 = 0`, the schema's default.
        case msyncV1
        /// `MSYNC_V2 = 1`.
        case msyncV2
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [Version] = [.msyncV1, .msyncV2]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .msyncV1: 0
            case .msyncV2: 1
            case .unrecognized(let value): value
            }
        }
    }

    /// `MSync.Command`: what an envelope's payload is.
    public enum Command: ProtobufEnum {
        /// `SYNC = 0`: ``MsyncPB/CommSyncUL`` up, ``MsyncPB/CommSyncDL`` down.
        case sync
        /// `UNREAD = 1`: ``MsyncPB/CommUnreadUL`` up (also the heartbeat), ``MsyncPB/CommUnreadDL`` down.
        case unread
        /// `NOTICE = 2`: ``MsyncPB/CommNotice`` down: a queue has new messages.
        case notice
        /// `PROVISION = 3`: ``MsyncPB/Provision`` both ways: login and its result.
        case provision
        /// `LOGOUT = 4`: ``MsyncPB/Logout`` up.
        case logout
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [Command] = [.sync, .unread, .notice, .provision, .logout]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .sync: 0
            case .unread: 1
            case .notice: 2
            case .provision: 3
            case .logout: 4
            case .unrecognized(let value): value
            }
        }
    }
}
