extension MsyncPB {
    /// `JID`: an address: a user (`name`) of an app (`appKey`, `org#app`) on a `domain`
    /// (`easemob.com`; `conference.easemob.com` for groups), optionally one device
    /// (`clientResource`). Also names a message queue.
    public struct JID: ProtobufMessage, Hashable {
        /// Field 1: `org#app`.
        public var appKey: String?
        /// Field 2: the user id (or group id).
        public var name: String?
        /// Field 3: `easemob.com`, or a `conference` domain for groups (the SDK reads it).
        public var domain: String?
        /// Field 4: the device's resource, e.g. `webim_wx_<ms>`.
        public var clientResource: String?

        /// The empty message.
        public init() {}

        /// An address with the given parts (nil parts are absent).
        public init(appKey: String? = nil, name: String? = nil, domain: String? = nil, clientResource: String? = nil) {
            self.appKey = appKey
            self.name = name
            self.domain = domain
            self.clientResource = clientResource
        }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: appKey = try reader.read(ProtobufString.self)
                case 2: name = try reader.read(ProtobufString.self)
                case 3: domain = try reader.read(ProtobufString.self)
                case 4: clientResource = try reader.read(ProtobufString.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(appKey, as: ProtobufString.self, field: 1)
            writer.write(name, as: ProtobufString.self, field: 2)
            writer.write(domain, as: ProtobufString.self, field: 3)
            writer.write(clientResource, as: ProtobufString.self, field: 4)
        }
    }
}
