extension MsyncPB {
    /// `CommSyncDL` (server → client, `SYNC`): a page of a queue (`metas`, `queue` — which the
    /// SDK requires —, `isLast`, `nextKey`), or the ack of a sent message (`metaId` = the
    /// client's id, `serverId`). Metas in it are delivered in any case, kicks included.
    public struct CommSyncDL: ProtobufMessage {
        /// Field 1.
        public var status: Status?
        /// Field 2: the client's message id being acknowledged; absent or 0 on a page.
        public var metaId: UInt64?
        /// Field 3: the server's id for the acknowledged message.
        public var serverId: UInt64?
        /// Field 4 (repeated): the messages of the page.
        public var metas: [Meta] = []
        /// Field 5: the key to pull the next page with.
        public var nextKey: UInt64?
        /// Field 6: the queue the page is of (the SDK reads `queue.name`).
        public var queue: JID?
        /// Field 7: whether this is the queue's last page.
        public var isLast: Bool?
        /// Field 8: server time, epoch ms.
        public var timestamp: UInt64?
        /// Field 9.
        public var isRoam: Bool?

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: status = try reader.read(Status.self)
                case 2: metaId = try reader.read(ProtobufUInt64.self)
                case 3: serverId = try reader.read(ProtobufUInt64.self)
                case 4: try reader.readRepeated(Meta.self, into: &metas)
                case 5: nextKey = try reader.read(ProtobufUInt64.self)
                case 6: queue = try reader.read(JID.self)
                case 7: isLast = try reader.read(ProtobufBool.self)
                case 8: timestamp = try reader.read(ProtobufUInt64.self)
                case 9: isRoam = try reader.read(ProtobufBool.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(status, as: Status.self, field: 1)
            writer.write(metaId, as: ProtobufUInt64.self, field: 2)
            writer.write(serverId, as: ProtobufUInt64.self, field: 3)
            writer.writeRepeated(metas, as: Meta.self, field: 4)
            writer.write(nextKey, as: ProtobufUInt64.self, field: 5)
            writer.write(queue, as: JID.self, field: 6)
            writer.write(isLast, as: ProtobufBool.self, field: 7)
            writer.write(timestamp, as: ProtobufUInt64.self, field: 8)
            writer.write(isRoam, as: ProtobufBool.self, field: 9)
        }
    }
}
