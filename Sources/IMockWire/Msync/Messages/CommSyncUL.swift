extension MsyncPB {
    /// `CommSyncUL` (client → server, `SYNC`): send a message (`meta`), or pull a queue
    /// (`queue`, and `key` = the previous reply's `nextKey` to go on).
    public struct CommSyncUL: ProtobufMessage {
        /// Field 1: a message to send (or the login statistic).
        public var meta: Meta?
        /// Field 2: where to go on pulling (`nextKey` of the previous page).
        public var key: UInt64?
        /// Field 3: the queue to pull.
        public var queue: JID?
        /// Field 4.
        public var isRoam: Bool?
        /// Field 5.
        public var lastFullRoamKey: UInt64?

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: meta = try reader.read(Meta.self)
                case 2: key = try reader.read(ProtobufUInt64.self)
                case 3: queue = try reader.read(JID.self)
                case 4: isRoam = try reader.read(ProtobufBool.self)
                case 5: lastFullRoamKey = try reader.read(ProtobufUInt64.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(meta, as: Meta.self, field: 1)
            writer.write(key, as: ProtobufUInt64.self, field: 2)
            writer.write(queue, as: JID.self, field: 3)
            writer.write(isRoam, as: ProtobufBool.self, field: 4)
            writer.write(lastFullRoamKey, as: ProtobufUInt64.self, field: 5)
        }
    }
}
