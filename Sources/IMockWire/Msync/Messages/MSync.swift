extension MsyncPB {
    /// `MSync`: the envelope of every msync frame, both ways. `command` says what `payload`
    /// holds: a ``Provision`` (login and its reply), a ``CommUnreadUL`` / ``CommUnreadDL``, a
    /// ``CommSyncUL`` / ``CommSyncDL``, a ``CommNotice`` or a ``Logout``.
    public struct MSync: ProtobufMessage {
        /// Field 1: the protocol version (the SDK writes `MSYNC_V1`).
        public var version: Version?
        /// Field 2: the client's address (set on the client's PROVISION).
        public var guid: JID?
        /// Field 3: `$t$<token>` on the client's PROVISION.
        public var auth: String?
        /// Field 4: `compressAlgorimth` in the schema (sic).
        public var compressAlgorithm: UInt32?
        /// Field 5.
        public var crypto: UInt32?
        /// Field 6.
        public var userAgent: String?
        /// Field 7.
        public var pov: UInt64?
        /// Field 8: what the payload is.
        public var command: Command?
        /// Field 9: the encoded message named by `command`.
        public var payload: [UInt8]?
        /// Field 10: the SDK writes 0 (its device id string coerced to a number).
        public var deviceId: UInt32?
        /// Field 11 (repeated, unpacked): the SDK writes `[ENCRYPT_NONE]`.
        public var encryptType: [EncryptType] = []
        /// Field 12.
        public var encryptKey: String?

        /// An envelope with no field set.
        public init() {}

        /// An envelope of `command` carrying `payload` encoded, as the server's replies are.
        public init(command: Command, payload: some ProtobufMessage) {
            self.command = command
            self.payload = payload.protobufBytes()
        }

        /// Decodes ``payload`` as `type` (an absent payload is the empty message); error
        /// locations start with field 9.
        public func decodePayload<M: ProtobufMessage>(as type: M.Type) throws(ProtobufError) -> M {
            try M(protobufBytes: payload ?? [], path: [9])
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: version = try reader.read(Version.self)
                case 2: guid = try reader.read(JID.self)
                case 3: auth = try reader.read(ProtobufString.self)
                case 4: compressAlgorithm = try reader.read(ProtobufUInt32.self)
                case 5: crypto = try reader.read(ProtobufUInt32.self)
                case 6: userAgent = try reader.read(ProtobufString.self)
                case 7: pov = try reader.read(ProtobufUInt64.self)
                case 8: command = try reader.read(Command.self)
                case 9: payload = try reader.read(ProtobufBytes.self)
                case 10: deviceId = try reader.read(ProtobufUInt32.self)
                case 11: try reader.readRepeated(EncryptType.self, into: &encryptType)
                case 12: encryptKey = try reader.read(ProtobufString.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set, in field-number order.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(version, as: Version.self, field: 1)
            writer.write(guid, as: JID.self, field: 2)
            writer.write(auth, as: ProtobufString.self, field: 3)
            writer.write(compressAlgorithm, as: ProtobufUInt32.self, field: 4)
            writer.write(crypto, as: ProtobufUInt32.self, field: 5)
            writer.write(userAgent, as: ProtobufString.self, field: 6)
            writer.write(pov, as: ProtobufUInt64.self, field: 7)
            writer.write(command, as: Command.self, field: 8)
            writer.write(payload, as: ProtobufBytes.self, field: 9)
            writer.write(deviceId, as: ProtobufUInt32.self, field: 10)
            writer.writeRepeated(encryptType, as: EncryptType.self, field: 11)
            writer.write(encryptKey, as: ProtobufString.self, field: 12)
        }
    }
}
