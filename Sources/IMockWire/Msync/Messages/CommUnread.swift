extension MsyncPB {
    /// `CommUnreadUL` (client → server, `UNREAD`): no fields; also sent as the heartbeat.
    public typealias CommUnreadUL = ProtobufEmptyMessage

    /// `CommUnreadDL` (server → client, `UNREAD`): the queues with messages waiting, and the
    /// server time the SDK compares with its token expiry.
    public struct CommUnreadDL: ProtobufMessage {
        /// Field 1.
        public var status: Status?
        /// Field 2 (repeated): one entry per queue with messages.
        public var unread: [MetaQueue] = []
        /// Field 3: server time, epoch ms.
        public var timestamp: UInt64?

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: status = try reader.read(Status.self)
                case 2: try reader.readRepeated(MetaQueue.self, into: &unread)
                case 3: timestamp = try reader.read(ProtobufUInt64.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(status, as: Status.self, field: 1)
            writer.writeRepeated(unread, as: MetaQueue.self, field: 2)
            writer.write(timestamp, as: ProtobufUInt64.self, field: 3)
        }
    }

    /// `MetaQueue`: a queue and how many messages wait in it.
    public struct MetaQueue: ProtobufMessage {
        /// Field 1.
        public var queue: JID?
        /// Field 2.
        public var n: UInt32?

        /// The empty message.
        public init() {}

        /// `n` messages waiting in `queue`.
        public init(queue: JID, n: UInt32) {
            self.queue = queue
            self.n = n
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: queue = try reader.read(JID.self)
                case 2: n = try reader.read(ProtobufUInt32.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(queue, as: JID.self, field: 1)
            writer.write(n, as: ProtobufUInt32.self, field: 2)
        }
    }
}
