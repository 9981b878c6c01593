extension MsyncPB {
    /// `MessageBody`: the payload of a `CHAT` / `MUC` meta: a message with its contents.
    public struct MessageBody: ProtobufMessage {
        /// Field 1: the conversation type (schema name `Type`).
        public var type: BodyType?
        /// Field 2.
        public var from: JID?
        /// Field 3.
        public var to: JID?
        /// Field 4 (repeated).
        public var contents: [Content] = []
        /// Field 5 (repeated).
        public var ext: [KeyValue] = []
        /// Field 6.
        public var ackMessageId: UInt64?
        /// Field 7.
        public var msgConfig: MessageConfig?
        /// Field 8.
        public var ackContent: String?
        /// Field 9.
        public var meta: String?
        /// Field 11.
        public var editMessageId: UInt64?
        /// Field 12.
        public var editScope: EditScope?

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: type = try reader.read(BodyType.self)
                case 2: from = try reader.read(JID.self)
                case 3: to = try reader.read(JID.self)
                case 4: try reader.readRepeated(Content.self, into: &contents)
                case 5: try reader.readRepeated(KeyValue.self, into: &ext)
                case 6: ackMessageId = try reader.read(ProtobufUInt64.self)
                case 7: msgConfig = try reader.read(MessageConfig.self)
                case 8: ackContent = try reader.read(ProtobufString.self)
                case 9: meta = try reader.read(ProtobufString.self)
                case 11: editMessageId = try reader.read(ProtobufUInt64.self)
                case 12: editScope = try reader.read(EditScope.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(type, as: BodyType.self, field: 1)
            writer.write(from, as: JID.self, field: 2)
            writer.write(to, as: JID.self, field: 3)
            writer.writeRepeated(contents, as: Content.self, field: 4)
            writer.writeRepeated(ext, as: KeyValue.self, field: 5)
            writer.write(ackMessageId, as: ProtobufUInt64.self, field: 6)
            writer.write(msgConfig, as: MessageConfig.self, field: 7)
            writer.write(ackContent, as: ProtobufString.self, field: 8)
            writer.write(meta, as: ProtobufString.self, field: 9)
            writer.write(editMessageId, as: ProtobufUInt64.self, field: 11)
            writer.write(editScope, as: EditScope.self, field: 12)
        }

        /// `MessageBody.MessageConfig`.
        public struct MessageConfig: ProtobufMessage, Hashable {
            /// Field 1.
            public var allowGroupAck: Bool?

            /// The empty message.
            public init() {}

            /// Reads the fields; unknown ones are skipped.
            public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
                self.init()
                while let field = try reader.nextField() {
                    if field.number == 1 { allowGroupAck = try reader.read(ProtobufBool.self) }
                }
            }

            /// Writes the fields that are set.
            public func encode(to writer: inout ProtobufWriter) {
                writer.write(allowGroupAck, as: ProtobufBool.self, field: 1)
            }
        }
    }
}
