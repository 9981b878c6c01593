extension MsyncPB {
    /// `Provision`: the login request (client → server, with the device and token) and its
    /// result (server → client: `status` is mandatory, `resource` echoes the client's, and
    /// `authToken` carries `{"expires_in":<absolute epoch ms>}`).
    public struct Provision: ProtobufMessage {
        /// Field 1: the client's platform (the Web SDK sends `OS_OTHER`).
        public var osType: OsType?
        /// Field 2: the SDK version, e.g. `4.17.0`.
        public var version: String?
        /// Field 3.
        public var networkType: NetworkType?
        /// Field 4.
        public var appSign: String?
        /// Field 5 (repeated, unpacked): the SDK sends `[COMPRESS_NONE]`.
        public var compressType: [CompressType] = []
        /// Field 6 (repeated, unpacked): the SDK sends `[ENCRYPT_NONE]`.
        public var encryptType: [EncryptType] = []
        /// Field 7.
        public var encryptKey: String?
        /// Field 8: the login result; the SDK crashes on a reply without it.
        public var status: Status?
        /// Field 9: the device's stable id, e.g. `wx_<ms>`.
        public var deviceUuid: String?
        /// Field 10.
        public var isManualLogin: Bool?
        /// Field 11.
        public var password: String?
        /// Field 12: e.g. `webim`.
        public var deviceName: String?
        /// Field 13: the device's resource; the reply echoes it and the SDK adopts it.
        public var resource: String?
        /// Field 14.
        public var auth: String?
        /// Field 16.
        public var serviceId: String?
        /// Field 17: e.g. `v5.1`.
        public var actionVersion: String?
        /// Field 18: `{"token":"$t$<token>"}` up; `{"expires_in":<epoch ms>}` down.
        public var authToken: String?
        /// Field 19: the custom platform number with `OS_CUSTOM`.
        public var osCustomValue: UInt32?
        /// Field 20: `<ms>:` from the Web SDK.
        public var sessionId: String?
        /// Field 21: the login extension (`loginInfoCustomExt`).
        public var reason: String?

        /// A provision with no field set.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: osType = try reader.read(OsType.self)
                case 2: version = try reader.read(ProtobufString.self)
                case 3: networkType = try reader.read(NetworkType.self)
                case 4: appSign = try reader.read(ProtobufString.self)
                case 5: try reader.readRepeated(CompressType.self, into: &compressType)
                case 6: try reader.readRepeated(EncryptType.self, into: &encryptType)
                case 7: encryptKey = try reader.read(ProtobufString.self)
                case 8: status = try reader.read(Status.self)
                case 9: deviceUuid = try reader.read(ProtobufString.self)
                case 10: isManualLogin = try reader.read(ProtobufBool.self)
                case 11: password = try reader.read(ProtobufString.self)
                case 12: deviceName = try reader.read(ProtobufString.self)
                case 13: resource = try reader.read(ProtobufString.self)
                case 14: auth = try reader.read(ProtobufString.self)
                case 16: serviceId = try reader.read(ProtobufString.self)
                case 17: actionVersion = try reader.read(ProtobufString.self)
                case 18: authToken = try reader.read(ProtobufString.self)
                case 19: osCustomValue = try reader.read(ProtobufUInt32.self)
                case 20: sessionId = try reader.read(ProtobufString.self)
                case 21: reason = try reader.read(ProtobufString.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set, in field-number order.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(osType, as: OsType.self, field: 1)
            writer.write(version, as: ProtobufString.self, field: 2)
            writer.write(networkType, as: NetworkType.self, field: 3)
            writer.write(appSign, as: ProtobufString.self, field: 4)
            writer.writeRepeated(compressType, as: CompressType.self, field: 5)
            writer.writeRepeated(encryptType, as: EncryptType.self, field: 6)
            writer.write(encryptKey, as: ProtobufString.self, field: 7)
            writer.write(status, as: Status.self, field: 8)
            writer.write(deviceUuid, as: ProtobufString.self, field: 9)
            writer.write(isManualLogin, as: ProtobufBool.self, field: 10)
            writer.write(password, as: ProtobufString.self, field: 11)
            writer.write(deviceName, as: ProtobufString.self, field: 12)
            writer.write(resource, as: ProtobufString.self, field: 13)
            writer.write(auth, as: ProtobufString.self, field: 14)
            writer.write(serviceId, as: ProtobufString.self, field: 16)
            writer.write(actionVersion, as: ProtobufString.self, field: 17)
            writer.write(authToken, as: ProtobufString.self, field: 18)
            writer.write(osCustomValue, as: ProtobufUInt32.self, field: 19)
            writer.write(sessionId, as: ProtobufString.self, field: 20)
            writer.write(reason, as: ProtobufString.self, field: 21)
        }
    }
}
