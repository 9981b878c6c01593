extension OpenIMPB {
    /// `sdkws.GetMaxSeqReq` (1001): the newest seq of each of the user's conversations.
    public struct GetMaxSeqReq: ProtobufMessage, Hashable {
        /// Field 1.
        public var userID = ""

        /// The empty message.
        public init() {}

        /// A request for `userID`'s conversations.
        public init(userID: String) { self.userID = userID }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                if field.number == 1 { userID = try reader.read(ProtobufString.self) }
            }
        }

        /// Writes the fields that are not their default.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeUnlessDefault(userID, as: ProtobufString.self, field: 1)
        }
    }

    /// `sdkws.GetMaxSeqResp` (1001): per conversation id, the newest and oldest seq.
    public struct GetMaxSeqResp: ProtobufMessage, Hashable {
        /// Field 1: `map<string, int64>`.
        public var maxSeqs: [String: Int64] = [:]
        /// Field 2: `map<string, int64>`.
        public var minSeqs: [String: Int64] = [:]

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: try reader.readMapEntry(key: ProtobufString.self, value: ProtobufInt64.self, into: &maxSeqs)
                case 2: try reader.readMapEntry(key: ProtobufString.self, value: ProtobufInt64.self, into: &minSeqs)
                default: break
                }
            }
        }

        /// Writes the maps, sorted by key.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeMap(maxSeqs, key: ProtobufString.self, value: ProtobufInt64.self, field: 1)
            writer.writeMap(minSeqs, key: ProtobufString.self, value: ProtobufInt64.self, field: 2)
        }
    }
}
