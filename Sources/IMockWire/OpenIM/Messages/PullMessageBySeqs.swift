extension OpenIMPB {
    /// `sdkws.PullMessageBySeqsReq` (1002): the messages of some seq ranges.
    public struct PullMessageBySeqsReq: ProtobufMessage, Hashable {
        /// Field 1.
        public var userID = ""
        /// Field 2 (repeated).
        public var seqRanges: [SeqRange] = []
        /// Field 3.
        public var order = PullOrder.asc

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: userID = try reader.read(ProtobufString.self)
                case 2: try reader.readRepeated(SeqRange.self, into: &seqRanges)
                case 3: order = try reader.read(PullOrder.self)
                default: break
                }
            }
        }

        /// Writes the fields that are not their default.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeUnlessDefault(userID, as: ProtobufString.self, field: 1)
            writer.writeRepeated(seqRanges, as: SeqRange.self, field: 2)
            writer.writeUnlessDefault(order, as: PullOrder.self, field: 3)
        }
    }

    /// `sdkws.SeqRange`: seqs `begin` … `end` of one conversation, at most `num` of them.
    public struct SeqRange: ProtobufMessage, Hashable {
        /// Field 1.
        public var conversationID = ""
        /// Field 2.
        public var begin: Int64 = 0
        /// Field 3.
        public var end: Int64 = 0
        /// Field 4.
        public var num: Int64 = 0

        /// The empty message.
        public init() {}

        /// The range `begin` … `end` of `conversationID`, at most `num` messages.
        public init(conversationID: String, begin: Int64, end: Int64, num: Int64) {
            self.conversationID = conversationID
            self.begin = begin
            self.end = end
            self.num = num
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: conversationID = try reader.read(ProtobufString.self)
                case 2: begin = try reader.read(ProtobufInt64.self)
                case 3: end = try reader.read(ProtobufInt64.self)
                case 4: num = try reader.read(ProtobufInt64.self)
                default: break
                }
            }
        }

        /// Writes the fields that are not their default.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeUnlessDefault(conversationID, as: ProtobufString.self, field: 1)
            writer.writeUnlessDefault(begin, as: ProtobufInt64.self, field: 2)
            writer.writeUnlessDefault(end, as: ProtobufInt64.self, field: 3)
            writer.writeUnlessDefault(num, as: ProtobufInt64.self, field: 4)
        }
    }

    /// `sdkws.PullOrder`.
    public enum PullOrder: ProtobufEnum {
        /// `PullOrderAsc = 0`.
        case asc
        /// `PullOrderDesc = 1`.
        case desc
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [PullOrder] = [.asc, .desc]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .asc: 0
            case .desc: 1
            case .unrecognized(let value): value
            }
        }
    }

    /// `sdkws.PullMessageBySeqsResp` (1002 reply): the same fields as ``PushMessages``.
    public typealias PullMessageBySeqsResp = MsgsByConversation

    /// `sdkws.PushMessages` (2001 push): the same fields as ``PullMessageBySeqsResp``.
    public typealias PushMessages = MsgsByConversation

    /// The shape of `sdkws.PullMessageBySeqsResp` and `sdkws.PushMessages` (also
    /// `msg.GetSeqMessageResp`): messages and notifications per conversation id.
    public struct MsgsByConversation: ProtobufMessage, Hashable {
        /// Field 1: `map<string, PullMsgs>`.
        public var msgs: [String: PullMsgs] = [:]
        /// Field 2: `map<string, PullMsgs>`.
        public var notificationMsgs: [String: PullMsgs] = [:]

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: try reader.readMapEntry(key: ProtobufString.self, value: PullMsgs.self, into: &msgs)
                case 2: try reader.readMapEntry(key: ProtobufString.self, value: PullMsgs.self, into: &notificationMsgs)
                default: break
                }
            }
        }

        /// Writes the maps, sorted by key.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeMap(msgs, key: ProtobufString.self, value: PullMsgs.self, field: 1)
            writer.writeMap(notificationMsgs, key: ProtobufString.self, value: PullMsgs.self, field: 2)
        }
    }

    /// `sdkws.PullMsgs`: the messages of one conversation.
    public struct PullMsgs: ProtobufMessage, Hashable {
        /// Field 1 `Msgs` (repeated).
        public var msgs: [MsgData] = []
        /// Field 2: no older messages remain.
        public var isEnd = false
        /// Field 3.
        public var endSeq: Int64 = 0

        /// The empty message.
        public init() {}

        /// The messages `msgs`.
        public init(msgs: [MsgData], isEnd: Bool = false, endSeq: Int64 = 0) {
            self.msgs = msgs
            self.isEnd = isEnd
            self.endSeq = endSeq
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: try reader.readRepeated(MsgData.self, into: &msgs)
                case 2: isEnd = try reader.read(ProtobufBool.self)
                case 3: endSeq = try reader.read(ProtobufInt64.self)
                default: break
                }
            }
        }

        /// Writes the fields that are not their default.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeRepeated(msgs, as: MsgData.self, field: 1)
            writer.writeUnlessDefault(isEnd, as: ProtobufBool.self, field: 2)
            writer.writeUnlessDefault(endSeq, as: ProtobufInt64.self, field: 3)
        }
    }
}
