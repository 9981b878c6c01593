extension MsyncPB {
    /// `Status`: the result of a request (a PROVISION, a SYNC, an UNREAD, a LOGOUT).
    public struct Status: ProtobufMessage {
        /// Field 1: absent means `OK`.
        public var errorCode: ErrorCode?
        /// Field 2: the text the SDK maps to its error (e.g. `Sorry, token expired`).
        public var reason: String?
        /// Field 3 (repeated): where to reconnect, with `REDIRECT`.
        public var redirectInfo: [RedirectInfo] = []

        /// The empty message.
        public init() {}

        /// A status with `errorCode` and `reason` (nil parts are absent); `Status()` is the
        /// empty status the SDK reads as OK.
        public init(errorCode: ErrorCode? = nil, reason: String? = nil) {
            self.errorCode = errorCode
            self.reason = reason
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: errorCode = try reader.read(ErrorCode.self)
                case 2: reason = try reader.read(ProtobufString.self)
                case 3: try reader.readRepeated(RedirectInfo.self, into: &redirectInfo)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(errorCode, as: ErrorCode.self, field: 1)
            writer.write(reason, as: ProtobufString.self, field: 2)
            writer.writeRepeated(redirectInfo, as: RedirectInfo.self, field: 3)
        }
    }

    /// `RedirectInfo`: another msync host to use.
    public struct RedirectInfo: ProtobufMessage, Hashable {
        /// Field 1.
        public var host: String?
        /// Field 2.
        public var port: UInt32?

        /// The empty message.
        public init() {}

        /// A redirect to `host`:`port` (nil parts are absent).
        public init(host: String? = nil, port: UInt32? = nil) {
            self.host = host
            self.port = port
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: host = try reader.read(ProtobufString.self)
                case 2: port = try reader.read(ProtobufUInt32.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(host, as: ProtobufString.self, field: 1)
            writer.write(port, as: ProtobufUInt32.self, field: 2)
        }
    }
}
