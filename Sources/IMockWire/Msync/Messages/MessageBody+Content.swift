extension MsyncPB.MessageBody {
    /// `MessageBody.Content`: one part of a message: text, image, file, location, custom ….
    public struct Content: ProtobufMessage {
        /// Field 1 (schema name `Type`); absent means `TEXT`.
        public var type: ContentType?
        /// Field 2: the text of a `TEXT` content.
        public var text: String?
        /// Field 3.
        public var latitude: Double?
        /// Field 4.
        public var longitude: Double?
        /// Field 5.
        public var address: String?
        /// Field 6.
        public var displayName: String?
        /// Field 7.
        public var remotePath: String?
        /// Field 8.
        public var secretKey: String?
        /// Field 9.
        public var fileLength: Int32?
        /// Field 10: the action of a `COMMAND` content.
        public var action: String?
        /// Field 11 (repeated).
        public var params: [MsyncPB.KeyValue] = []
        /// Field 12.
        public var duration: Int32?
        /// Field 13.
        public var size: Size?
        /// Field 14.
        public var thumbnailRemotePath: String?
        /// Field 15.
        public var thumbnailSecretKey: String?
        /// Field 16.
        public var thumbnailDisplayName: String?
        /// Field 17.
        public var thumbnailFileLength: Int32?
        /// Field 18.
        public var thumbnailSize: Size?
        /// Field 19.
        public var customEvent: String?
        /// Field 20 (repeated).
        public var customExts: [MsyncPB.KeyValue] = []
        /// Field 21.
        public var buildingName: String?
        /// Field 22.
        public var subType: SubType?
        /// Field 23.
        public var title: String?
        /// Field 24.
        public var summary: String?
        /// Field 25.
        public var combineLevel: Int32?

        /// The empty message.
        public init() {}

        /// A text content (the type left absent, which means `TEXT`, as the SDK writes it).
        public init(text: String) { self.text = text }

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: type = try reader.read(ContentType.self)
                case 2: text = try reader.read(ProtobufString.self)
                case 3: latitude = try reader.read(ProtobufDouble.self)
                case 4: longitude = try reader.read(ProtobufDouble.self)
                case 5: address = try reader.read(ProtobufString.self)
                case 6: displayName = try reader.read(ProtobufString.self)
                case 7: remotePath = try reader.read(ProtobufString.self)
                case 8: secretKey = try reader.read(ProtobufString.self)
                case 9: fileLength = try reader.read(ProtobufInt32.self)
                case 10: action = try reader.read(ProtobufString.self)
                case 11: try reader.readRepeated(MsyncPB.KeyValue.self, into: &params)
                case 12: duration = try reader.read(ProtobufInt32.self)
                case 13: size = try reader.read(Size.self)
                case 14: thumbnailRemotePath = try reader.read(ProtobufString.self)
                case 15: thumbnailSecretKey = try reader.read(ProtobufString.self)
                case 16: thumbnailDisplayName = try reader.read(ProtobufString.self)
                case 17: thumbnailFileLength = try reader.read(ProtobufInt32.self)
                case 18: thumbnailSize = try reader.read(Size.self)
                case 19: customEvent = try reader.read(ProtobufString.self)
                case 20: try reader.readRepeated(MsyncPB.KeyValue.self, into: &customExts)
                case 21: buildingName = try reader.read(ProtobufString.self)
                case 22: subType = try reader.read(SubType.self)
                case 23: title = try reader.read(ProtobufString.self)
                case 24: summary = try reader.read(ProtobufString.self)
                case 25: combineLevel = try reader.read(ProtobufInt32.self)
                default: break
                }
            }
        }

        /// Writes the fields that are set.
        public func encode(to writer: inout ProtobufWriter) {
            writer.write(type, as: ContentType.self, field: 1)
            writer.write(text, as: ProtobufString.self, field: 2)
            writer.write(latitude, as: ProtobufDouble.self, field: 3)
            writer.write(longitude, as: ProtobufDouble.self, field: 4)
            writer.write(address, as: ProtobufString.self, field: 5)
            writer.write(displayName, as: ProtobufString.self, field: 6)
            writer.write(remotePath, as: ProtobufString.self, field: 7)
            writer.write(secretKey, as: ProtobufString.self, field: 8)
            writer.write(fileLength, as: ProtobufInt32.self, field: 9)
            writer.write(action, as: ProtobufString.self, field: 10)
            writer.writeRepeated(params, as: MsyncPB.KeyValue.self, field: 11)
            writer.write(duration, as: ProtobufInt32.self, field: 12)
            writer.write(size, as: Size.self, field: 13)
            writer.write(thumbnailRemotePath, as: ProtobufString.self, field: 14)
            writer.write(thumbnailSecretKey, as: ProtobufString.self, field: 15)
            writer.write(thumbnailDisplayName, as: ProtobufString.self, field: 16)
            writer.write(thumbnailFileLength, as: ProtobufInt32.self, field: 17)
            writer.write(thumbnailSize, as: Size.self, field: 18)
            writer.write(customEvent, as: ProtobufString.self, field: 19)
            writer.writeRepeated(customExts, as: MsyncPB.KeyValue.self, field: 20)
            writer.write(buildingName, as: ProtobufString.self, field: 21)
            writer.write(subType, as: SubType.self, field: 22)
            writer.write(title, as: ProtobufString.self, field: 23)
            writer.write(summary, as: ProtobufString.self, field: 24)
            writer.write(combineLevel, as: ProtobufInt32.self, field: 25)
        }

        /// `Content.Size`: the size of an image or video.
        public struct Size: ProtobufMessage, Hashable {
            /// Field 1.
            public var width: Double?
            /// Field 2.
            public var height: Double?

            /// The empty message.
            public init() {}

            /// A size of `width` × `height`.
            public init(width: Double, height: Double) {
                self.width = width
                self.height = height
            }

            /// Reads the fields; unknown ones are skipped.
            public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
                self.init()
                while let field = try reader.nextField() {
                    switch field.number {
                    case 1: width = try reader.read(ProtobufDouble.self)
                    case 2: height = try reader.read(ProtobufDouble.self)
                    default: break
                    }
                }
            }

            /// Writes the fields that are set.
            public func encode(to writer: inout ProtobufWriter) {
                writer.write(width, as: ProtobufDouble.self, field: 1)
                writer.write(height, as: ProtobufDouble.self, field: 2)
            }
        }
    }
}
