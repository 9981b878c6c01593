extension MsyncPB.Provision {
    /// `Provision.OsType`: the client's platform.
    public enum OsType: ProtobufEnum {
        /// `OS_IOS = 0`.
        case ios
        /// `OS_ANDROID = 1`.
        case android
        /// `OS_LINUX = 2`.
        case linux
        /// `OS_OSX = 3`.
        case osx
        /// `OS_WIN = 4`.
        case win
        /// `OS_CUSTOM = 5`: the number is in `osCustomValue`.
        case custom
        /// `OS_OTHER = 16`: what the Web SDK sends.
        case other
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [OsType] = [.ios, .android, .linux, .osx, .win, .custom, .other]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .ios: 0
            case .android: 1
            case .linux: 2
            case .osx: 3
            case .win: 4
            case .custom: 5
            case .other: 16
            case .unrecognized(let value): value
            }
        }
    }

    /// `Provision.NetworkType`.
    public enum NetworkType: ProtobufEnum {
        /// `NETWORK_NONE = 0`.
        case none
        /// `NETWORK_WIFI = 1`.
        case wifi
        /// `NETWORK_4G = 2`.
        case network4G
        /// `NETWORK_3G = 3`.
        case network3G
        /// `NETWORK_2G = 4`.
        case network2G
        /// `NETWORK_WIRE = 5`.
        case wire
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [NetworkType] = [.none, .wifi, .network4G, .network3G, .network2G, .wire]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .none: 0
            case .wifi: 1
            case .network4G: 2
            case .network3G: 3
            case .network2G: 4
            case .wire: 5
            case .unrecognized(let value): value
            }
        }
    }

    /// `Provision.CompressType`.
    public enum CompressType: ProtobufEnum {
        /// `COMPRESS_NONE = 0`.
        case none
        /// `COMPRESS_ZLIB = 1`.
        case zlib
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [CompressType] = [.none, .zlib]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .none: 0
            case .zlib: 1
            case .unrecognized(let value): value
            }
        }
    }
}
