extension MsyncPB.Meta {
    /// `Meta.NameSpace`: what a meta's payload is.
    public enum NameSpace: ProtobufEnum {
        /// `STATISTIC = 0`: a ``MsyncPB/StatisticsBody`` (login statistic, kick).
        case statistic
        /// `CHAT = 1`: a one-to-one ``MsyncPB/MessageBody``.
        case chat
        /// `MUC = 2`: a group or chat-room body.
        case muc
        /// `ROSTER = 3`: a contact operation.
        case roster
        /// `CONFERENCE = 4`.
        case conference
        /// `NOTIFY = 5`.
        case notify
        /// `QUERY = 6`.
        case query
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [NameSpace] = [.statistic, .chat, .muc, .roster, .conference, .notify, .query]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .statistic: 0
            case .chat: 1
            case .muc: 2
            case .roster: 3
            case .conference: 4
            case .notify: 5
            case .query: 6
            case .unrecognized(let value): value
            }
        }
    }

    /// `Meta.RouteType`.
    public enum RouteType: ProtobufEnum {
        /// `ROUTE_ALL = 0`.
        case all
        /// `ROUTE_ONLINE = 1`.
        case online
        /// `ROUTE_DIRECT = 2`.
        case direct
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [RouteType] = [.all, .online, .direct]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .all: 0
            case .online: 1
            case .direct: 2
            case .unrecognized(let value): value
            }
        }
    }
}
