extension MsyncPB {
    /// `Meta`: one item of a queue: a message (`ns` CHAT/MUC, payload ``MessageBody``), a
    /// statistic or kick (`ns` STATISTIC, payload ``StatisticsBody``), or another namespace's body.
    public struct Meta: ProtobufMessage {
        /// Field 1: the message id (client id up, server id down).
        public var id: UInt64?
        /// Field 2: the sender (the SDK reads `from.name`).
        public var from: JID?
        /// Field 3: the recipient (the SDK reads `to.domain`).
        public var to: JID?
        /// Field 4: epoch ms.
        public var timestamp: UInt64?
        /// Field 5: what the payload is.
        public var ns: NameSpace?
        /// Field 6: the encoded body named by `ns`.
        public var payload: [UInt8]?
        /// Field 7.
        public var routetype: RouteType?
        /// Field 8 (repeated).
        public var ext: [KeyValue] = []
        /// Field 9.
        public var meta: [UInt8]?
        /// Field 10 (repeated).
        public var directedUsers: [String] = []

        /// The empty message.
        public init() {}

        /// Decodes ``payload`` as `type` (an absent payload is the empty message); error
        /// locations start with field 6.
        public func decodePayload<M: ProtobufMessage>(as type: M.Type) throws(ProtobufError) -> M {
            try M(protobufBytes: payload ?? [], path: [6])
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: id = try reader.read(ProtobufUInt64.self)
                case 2: from = try reader.read(JID.self)
                case 3: to = try reader.read(JID.self)
                case 4: timestamp = try reader.read(ProtobufUInt64.self)
                case 5: ns = try reader.read(NameSpace.self)
                case 6: payload = try reader.read(ProtobufBytes.self)
                case 7: routetype = try reader.read(RouteType.self)
                case 8: try reader.readRepeated(KeyValue.self, into: &ext)
                case 9: meta = try reader.read(ProtobufBytes.self)
                case 10: try reader.readRepeated(ProtobufString.self, into: &directedUsers)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(id, as: ProtobufUInt64.self, field: 1)
            writer.write(from, as: JID.self, field: 2)
            writer.write(to, as: JID.self, field: 3)
            writer.write(timestamp, as: ProtobufUInt64.self, field: 4)
            writer.write(ns, as: NameSpace.self, field: 5)
            writer.write(payload, as: ProtobufBytes.self, field: 6)
            writer.write(routetype, as: RouteType.self, field: 7)
            writer.writeRepeated(ext, as: KeyValue.self, field: 8)
            writer.write(meta, as: ProtobufBytes.self, field: 9)
            writer.writeRepeated(directedUsers, as: ProtobufString.self, field: 10)
        }
    }
}
