extension OpenIMPB {
    /// `msg.SendMsgReq`: the message service's request; the gateway's 1003 carries the
    /// ``MsgData`` itself and wraps it in this.
    public struct SendMsgReq: ProtobufMessage, Hashable {
        /// Field 3.
        public var msgData: MsgData?

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                if field.number == 3 { msgData = try reader.read(MsgData.self) }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(msgData, as: MsgData.self, field: 3)
        }
    }

    /// `msg.SendMsgResp` (1003 reply): the ids and time the server gave the message.
    public struct SendMsgResp: ProtobufMessage, Hashable {
        /// Field 1.
        public var serverMsgID = ""
        /// Field 2: echoes the client's id.
        public var clientMsgID = ""
        /// Field 3: epoch ms.
        public var sendTime: Int64 = 0
        /// Field 4: the message as a webhook changed it, if it did.
        public var modify: MsgData?

        /// The empty message.
        public init() {}

        /// A reply with the ids and `sendTime`.
        public init(serverMsgID: String, clientMsgID: String, sendTime: Int64) {
            self.serverMsgID = serverMsgID
            self.clientMsgID = clientMsgID
            self.sendTime = sendTime
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            try readFields(from: &reader)
        }

        /// Reads the fields into this value (``init(protobuf:)``'s loop).
        mutating func readFields(from reader: inout ProtobufReader) throws(ProtobufError) {
            while let field = try reader.nextField() {
                switch field.number {
                case 1: serverMsgID = try reader.read(ProtobufString.self)
                case 2: clientMsgID = try reader.read(ProtobufString.self)
                case 3: sendTime = try reader.read(ProtobufInt64.self)
                case 4: modify = try reader.read(MsgData.self)
                default: break
                }
            }
        }

        /// Writes the fields that are not their default.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeUnlessDefault(serverMsgID, as: ProtobufString.self, field: 1)
            writer.writeUnlessDefault(clientMsgID, as: ProtobufString.self, field: 2)
            writer.writeUnlessDefault(sendTime, as: ProtobufInt64.self, field: 3)
            writer.write(modify, as: MsgData.self, field: 4)
        }
    }
}

extension OpenIMPB.SendMsgResp {
    /// The reply in `bytes`, as ``init(protobufBytes:path:limits:)`` reads it, filled in place:
    /// the value (its `modify` a whole `MsgData`) is not copied out. The reference client reads
    /// one a message.
    public static func decoded(_ bytes: [UInt8]) throws(ProtobufError) -> Self {
        var reader = try ProtobufReader(bytes)
        var reply = Self()
        try reply.readFields(from: &reader)
        return reply
    }
}
