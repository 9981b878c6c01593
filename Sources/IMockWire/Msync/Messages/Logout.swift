extension MsyncPB {
    /// `Logout` (client → server, `LOGOUT`): `reason` is `inner:logout` or
    /// `inner:token expired`. Never required: some SDK builds send none.
    public struct Logout: ProtobufMessage {
        /// Field 1.
        public var sessionId: String?
        /// Field 2.
        public var reason: String?
        /// Field 3.
        public var status: Status?

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: sessionId = try reader.read(ProtobufString.self)
                case 2: reason = try reader.read(ProtobufString.self)
                case 3: status = try reader.read(Status.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(sessionId, as: ProtobufString.self, field: 1)
            writer.write(reason, as: ProtobufString.self, field: 2)
            writer.write(status, as: Status.self, field: 3)
        }
    }
}
