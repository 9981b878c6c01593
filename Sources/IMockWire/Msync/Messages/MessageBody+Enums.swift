extension MsyncPB.MessageBody {
    /// `MessageBody.Type`: the conversation type of a message.
    public enum BodyType: ProtobufEnum {
        /// `NORMAL = 0`.
        case normal
        /// `CHAT = 1`: one-to-one.
        case chat
        /// `GROUPCHAT = 2`.
        case groupChat
        /// `CHATROOM = 3`.
        case chatRoom
        /// `READ_ACK = 4`.
        case readAck
        /// `DELIVER_ACK = 5`.
        case deliverAck
        /// `RECALL = 6`.
        case recall
        /// `CHANNEL_ACK = 7`.
        case channelAck
        /// `EDIT = 8`.
        case edit
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [BodyType] = [
            .normal, .chat, .groupChat, .chatRoom, .readAck, .deliverAck, .recall, .channelAck, .edit,
        ]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .normal: 0
            case .chat: 1
            case .groupChat: 2
            case .chatRoom: 3
            case .readAck: 4
            case .deliverAck: 5
            case .recall: 6
            case .channelAck: 7
            case .edit: 8
            case .unrecognized(let value): value
            }
        }
    }

    /// `MessageBody.EditScope`.
    public enum EditScope: ProtobufEnum {
        /// `BODY = 1`.
        case body
        /// `BODY_AND_EXT = 2`.
        case bodyAndExt
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [EditScope] = [.body, .bodyAndExt]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .body: 1
            case .bodyAndExt: 2
            case .unrecognized(let value): value
            }
        }
    }
}
