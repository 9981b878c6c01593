extension MsyncPB {
    /// `CommNotice` (server → client, `NOTICE`): `queue` has new messages; the client pulls it.
    public struct CommNotice: ProtobufMessage {
        /// Field 1.
        public var queue: JID?

        /// The empty message.
        public init() {}

        /// A notice about `queue`.
        public init(queue: JID) { self.queue = queue }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                if field.number == 1 { queue = try reader.read(JID.self) }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(queue, as: JID.self, field: 1)
        }
    }
}
