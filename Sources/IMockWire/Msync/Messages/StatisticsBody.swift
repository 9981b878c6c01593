extension MsyncPB {
    /// `StatisticsBody`: the payload of a `STATISTIC` meta: the client's login statistic
    /// (`INFORMATION`) or, from the server, a kick (`operation` 1…4, `reason` = the new
    /// device's login extension).
    public struct StatisticsBody: ProtobufMessage {
        /// `StatisticsBody.OsType`: the same values as ``Provision/OsType``.
        public typealias OsType = Provision.OsType
        /// `StatisticsBody.NetworkType`: the same values as ``Provision/NetworkType``.
        public typealias NetworkType = Provision.NetworkType

        /// Field 1.
        public var operation: Operation?
        /// Field 2.
        public var os: OsType?
        /// Field 3.
        public var version: String?
        /// Field 4.
        public var network: NetworkType?
        /// Field 5.
        public var imTime: UInt32?
        /// Field 6.
        public var chatTime: UInt32?
        /// Field 7.
        public var location: String?
        /// Field 10: with a kick, the new device's `loginInfoCustomExt`.
        public var reason: String?

        /// The empty message.
        public init() {}

        /// A statistic of `operation` with `reason` (nil is absent).
        public init(operation: Operation, reason: String? = nil) {
            self.operation = operation
            self.reason = reason
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: operation = try reader.read(Operation.self)
                case 2: os = try reader.read(OsType.self)
                case 3: version = try reader.read(ProtobufString.self)
                case 4: network = try reader.read(NetworkType.self)
                case 5: imTime = try reader.read(ProtobufUInt32.self)
                case 6: chatTime = try reader.read(ProtobufUInt32.self)
                case 7: location = try reader.read(ProtobufString.self)
                case 10: reason = try reader.read(ProtobufString.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(operation, as: Operation.self, field: 1)
            writer.write(os, as: OsType.self, field: 2)
            writer.write(version, as: ProtobufString.self, field: 3)
            writer.write(network, as: NetworkType.self, field: 4)
            writer.write(imTime, as: ProtobufUInt32.self, field: 5)
            writer.write(chatTime, as: ProtobufUInt32.self, field: 6)
            writer.write(location, as: ProtobufString.self, field: 7)
            writer.write(reason, as: ProtobufString.self, field: 10)
        }

        /// `StatisticsBody.Operation`; from the server, 1…4 are kicks (web error 207, 206,
        /// 216, 217).
        public enum Operation: ProtobufEnum {
            /// `INFORMATION = 0`: the client's login statistic.
            case information
            /// `USER_REMOVED = 1`: the account was deleted (web 207).
            case userRemoved
            /// `USER_LOGIN_ANOTHER_DEVICE = 2`: logged in elsewhere (web 206).
            case userLoginAnotherDevice
            /// `USER_KICKED_BY_CHANGE_PASSWORD = 3` (web 216).
            case userKickedByChangePassword
            /// `USER_KICKED_BY_OTHER_DEVICE = 4` (web 217).
            case userKickedByOtherDevice
            /// A number the schema does not define.
            case unrecognized(Int32)

            /// The schema's values in order.
            public static let knownCases: [Operation] = [
                .information, .userRemoved, .userLoginAnotherDevice, .userKickedByChangePassword,
                .userKickedByOtherDevice,
            ]

            /// The number on the wire.
            public var rawValue: Int32 {
                switch self {
                case .information: 0
                case .userRemoved: 1
                case .userLoginAnotherDevice: 2
                case .userKickedByChangePassword: 3
                case .userKickedByOtherDevice: 4
                case .unrecognized(let value): value
                }
            }
        }
    }
}
