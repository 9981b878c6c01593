extension OpenIMPB {
    /// `sdkws.SubUserOnlineStatus` (2005): users to start and stop watching.
    public struct SubUserOnlineStatus: ProtobufMessage, Hashable {
        /// Field 1 (repeated).
        public var subscribeUserID: [String] = []
        /// Field 2 (repeated).
        public var unsubscribeUserID: [String] = []

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: try reader.readRepeated(ProtobufString.self, into: &subscribeUserID)
                case 2: try reader.readRepeated(ProtobufString.self, into: &unsubscribeUserID)
                default: break
                }
            }
        }

        /// Writes the lists.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeRepeated(subscribeUserID, as: ProtobufString.self, field: 1)
            writer.writeRepeated(unsubscribeUserID, as: ProtobufString.self, field: 2)
        }
    }

    /// `sdkws.SubUserOnlineStatusTips` (2005 reply and push): the watched users' platforms.
    public struct SubUserOnlineStatusTips: ProtobufMessage, Hashable {
        /// Field 1 (repeated).
        public var subscribers: [SubUserOnlineStatusElem] = []

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                if field.number == 1 { try reader.readRepeated(SubUserOnlineStatusElem.self, into: &subscribers) }
            }
        }

        /// Writes the list.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeRepeated(subscribers, as: SubUserOnlineStatusElem.self, field: 1)
        }
    }

    /// `sdkws.SubUserOnlineStatusElem`: the platforms a user is online on.
    public struct SubUserOnlineStatusElem: ProtobufMessage, Hashable {
        /// Field 1.
        public var userID = ""
        /// Field 2 (repeated `int32`, packed).
        public var onlinePlatformIDs: [Int32] = []

        /// The empty message.
        public init() {}

        /// `userID` online on `onlinePlatformIDs`.
        public init(userID: String, onlinePlatformIDs: [Int32]) {
            self.userID = userID
            self.onlinePlatformIDs = onlinePlatformIDs
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: userID = try reader.read(ProtobufString.self)
                case 2: try reader.readRepeated(ProtobufInt32.self, into: &onlinePlatformIDs)
                default: break
                }
            }
        }

        /// Writes the fields that are not their default.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeUnlessDefault(userID, as: ProtobufString.self, field: 1)
            writer.writePacked(onlinePlatformIDs, as: ProtobufInt32.self, field: 2)
        }
    }
}
