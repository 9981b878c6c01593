extension MsyncPB {
    /// `EncryptType`: how a payload is encrypted (`MSync.encryptType`, `Provision.encryptType`).
    public enum EncryptType: ProtobufEnum {
        /// `ENCRYPT_NONE = 0`.
        case none
        /// `ENCRYPT_AES_128_CBC = 1`.
        case aes128CBC
        /// `ENCRYPT_AES_256_CBC = 2`.
        case aes256CBC
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [EncryptType] = [.none, .aes128CBC, .aes256CBC]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .none: 0
            case .aes128CBC: 1
            case .aes256CBC: 2
            case .unrecognized(let value): value
            }
        }
    }
}
