extension OpenIMPB {
    /// `sdkws.SetAppBackgroundStatusReq` (2004).
    public struct SetAppBackgroundStatusReq: ProtobufMessage, Hashable {
        /// Field 1.
        public var userID = ""
        /// Field 2.
        public var isBackground = false

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: userID = try reader.read(ProtobufString.self)
                case 2: isBackground = try reader.read(ProtobufBool.self)
                default: break
                }
            }
        }

        /// Writes the fields that are not their default.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeUnlessDefault(userID, as: ProtobufString.self, field: 1)
            writer.writeUnlessDefault(isBackground, as: ProtobufBool.self, field: 2)
        }
    }

    /// `sdkws.SetAppBackgroundStatusResp` (2004 reply): no fields.
    public typealias SetAppBackgroundStatusResp = ProtobufEmptyMessage

    /// `push.DelUserPushTokenReq` (2003 logout): the device whose push token to drop.
    public struct DelUserPushTokenReq: ProtobufMessage, Hashable {
        /// Field 1.
        public var userID = ""
        /// Field 2.
        public var platformID: Int32 = 0

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: userID = try reader.read(ProtobufString.self)
                case 2: platformID = try reader.read(ProtobufInt32.self)
                default: break
                }
            }
        }

        /// Writes the fields that are not their default.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeUnlessDefault(userID, as: ProtobufString.self, field: 1)
            writer.writeUnlessDefault(platformID, as: ProtobufInt32.self, field: 2)
        }
    }

    /// `push.DelUserPushTokenResp` (2003 reply, before the server closes): no fields.
    public typealias DelUserPushTokenResp = ProtobufEmptyMessage
}
