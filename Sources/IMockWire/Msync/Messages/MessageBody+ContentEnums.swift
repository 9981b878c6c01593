extension MsyncPB.MessageBody.Content {
    /// `Content.Type`: the kind of a content.
    public enum ContentType: ProtobufEnum {
        /// `TEXT = 0`.
        case text
        /// `IMAGE = 1`.
        case image
        /// `VIDEO = 2`.
        case video
        /// `LOCATION = 3`.
        case location
        /// `VOICE = 4`.
        case voice
        /// `FILE = 5`.
        case file
        /// `COMMAND = 6`.
        case command
        /// `CUSTOM = 7`.
        case custom
        /// `COMBINE = 8`.
        case combine
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [ContentType] = [
            .text, .image, .video, .location, .voice, .file, .command, .custom, .combine,
        ]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .text: 0
            case .image: 1
            case .video: 2
            case .location: 3
            case .voice: 4
            case .file: 5
            case .command: 6
            case .custom: 7
            case .combine: 8
            case .unrecognized(let value): value
            }
        }
    }

    /// `Content.SubType`.
    public enum SubType: ProtobufEnum {
        /// `COMBINE = 0`.
        case combine
        /// `GIF = 1`.
        case gif
        /// A number the schema does not define.
        case unrecognized(Int32)

        /// The schema's values in order.
        public static let knownCases: [SubType] = [.combine, .gif]

        /// The number on the wire.
        public var rawValue: Int32 {
            switch self {
            case .combine: 0
            case .gif: 1
            case .unrecognized(let value): value
            }
        }
    }
}
