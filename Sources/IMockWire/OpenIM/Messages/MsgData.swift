extension OpenIMPB {
    /// `sdkws.MsgData`: one message, sent (1003) or delivered (1002, 2001).
    public struct MsgData: ProtobufMessage, Hashable {
        /// Field 1.
        public var sendID = ""
        /// Field 2.
        public var recvID = ""
        /// Field 3.
        public var groupID = ""
        /// Field 4: the sender's id for the message.
        public var clientMsgID = ""
        /// Field 5: the server's id for the message.
        public var serverMsgID = ""
        /// Field 6.
        public var senderPlatformID: Int32 = 0
        /// Field 7.
        public var senderNickname = ""
        /// Field 8.
        public var senderFaceURL = ""
        /// Field 9: 1 single chat, 3 group, 4 notification.
        public var sessionType: Int32 = 0
        /// Field 10: 100 user, 200 system.
        public var msgFrom: Int32 = 0
        /// Field 11: 101 text ….
        public var contentType: Int32 = 0
        /// Field 12: the content, JSON such as `{"content":"hi"}` for text.
        public var content: [UInt8] = []
        /// Field 14: the message's seq in its conversation.
        public var seq: Int64 = 0
        /// Field 15: epoch ms.
        public var sendTime: Int64 = 0
        /// Field 16: epoch ms.
        public var createTime: Int64 = 0
        /// Field 17.
        public var status: Int32 = 0
        /// Field 18.
        public var isRead = false
        /// Field 19: `map<string, bool>`.
        public var options: [String: Bool] = [:]
        /// Field 20.
        public var offlinePushInfo: OfflinePushInfo?
        /// Field 21 (repeated).
        public var atUserIDList: [String] = []
        /// Field 22.
        public var attachedInfo = ""
        /// Field 23.
        public var ex = ""

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 19: try reader.readMapEntry(key: ProtobufString.self, value: ProtobufBool.self, into: &options)
                case 20: offlinePushInfo = try reader.read(OfflinePushInfo.self)
                case 21: try reader.readRepeated(ProtobufString.self, into: &atUserIDList)
                default: _ = try readPlainField(field.number, from: &reader)  // false: unknown, skipped
                }
            }
        }

        /// Reads the current field of `reader`, numbered `number`, when it is one of the
        /// message's strings, bytes or numbers (not the map, the nested message or the repeated
        /// field): true, or false — the value left unread — for any other field. Shared by
        /// ``init(protobuf:)`` and ``scanned(_:)``, which so read a field the same way.
        @inline(__always)
        mutating func readPlainField(_ number: Int, from reader: inout ProtobufReader) throws(ProtobufError) -> Bool {
            switch number {
            case 1: sendID = try reader.read(ProtobufString.self)
            case 2: recvID = try reader.read(ProtobufString.self)
            case 3: groupID = try reader.read(ProtobufString.self)
            case 4: clientMsgID = try reader.read(ProtobufString.self)
            case 5: serverMsgID = try reader.read(ProtobufString.self)
            case 6: senderPlatformID = try reader.read(ProtobufInt32.self)
            case 7: senderNickname = try reader.read(ProtobufString.self)
            case 8: senderFaceURL = try reader.read(ProtobufString.self)
            case 9: sessionType = try reader.read(ProtobufInt32.self)
            case 10: msgFrom = try reader.read(ProtobufInt32.self)
            case 11: contentType = try reader.read(ProtobufInt32.self)
            case 12: content = try reader.read(ProtobufBytes.self)
            case 14: seq = try reader.read(ProtobufInt64.self)
            case 15: sendTime = try reader.read(ProtobufInt64.self)
            case 16: createTime = try reader.read(ProtobufInt64.self)
            case 17: status = try reader.read(ProtobufInt32.self)
            case 18: isRead = try reader.read(ProtobufBool.self)
            case 22: attachedInfo = try reader.read(ProtobufString.self)
            case 23: ex = try reader.read(ProtobufString.self)
            default: return false
            }
            return true
        }

        /// Writes the fields that are not their default.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeUnlessDefault(sendID, as: ProtobufString.self, field: 1)
            writer.writeUnlessDefault(recvID, as: ProtobufString.self, field: 2)
            writer.writeUnlessDefault(groupID, as: ProtobufString.self, field: 3)
            writer.writeUnlessDefault(clientMsgID, as: ProtobufString.self, field: 4)
            writer.writeUnlessDefault(serverMsgID, as: ProtobufString.self, field: 5)
            writer.writeUnlessDefault(senderPlatformID, as: ProtobufInt32.self, field: 6)
            writer.writeUnlessDefault(senderNickname, as: ProtobufString.self, field: 7)
            writer.writeUnlessDefault(senderFaceURL, as: ProtobufString.self, field: 8)
            writer.writeUnlessDefault(sessionType, as: ProtobufInt32.self, field: 9)
            writer.writeUnlessDefault(msgFrom, as: ProtobufInt32.self, field: 10)
            writer.writeUnlessDefault(contentType, as: ProtobufInt32.self, field: 11)
            writer.writeUnlessDefault(content, as: ProtobufBytes.self, field: 12)
            writer.writeUnlessDefault(seq, as: ProtobufInt64.self, field: 14)
            writer.writeUnlessDefault(sendTime, as: ProtobufInt64.self, field: 15)
            writer.writeUnlessDefault(createTime, as: ProtobufInt64.self, field: 16)
            writer.writeUnlessDefault(status, as: ProtobufInt32.self, field: 17)
            writer.writeUnlessDefault(isRead, as: ProtobufBool.self, field: 18)
            writer.writeMap(options, key: ProtobufString.self, value: ProtobufBool.self, field: 19)
            writer.write(offlinePushInfo, as: OfflinePushInfo.self, field: 20)
            writer.writeRepeated(atUserIDList, as: ProtobufString.self, field: 21)
            writer.writeUnlessDefault(attachedInfo, as: ProtobufString.self, field: 22)
            writer.writeUnlessDefault(ex, as: ProtobufString.self, field: 23)
        }
    }

    /// `sdkws.OfflinePushInfo`: what a push notification of the message shows.
    public struct OfflinePushInfo: ProtobufMessage, Hashable {
        /// Field 1.
        public var title = ""
        /// Field 2.
        public var desc = ""
        /// Field 3.
        public var ex = ""
        /// Field 4.
        public var iOSPushSound = ""
        /// Field 5.
        public var iOSBadgeCount = false
        /// Field 6.
        public var signalInfo = ""

        /// The empty message.
        public init() {}

        /// Reads the fields; unknown ones are skipped.
        public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
            self.init()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: title = try reader.read(ProtobufString.self)
                case 2: desc = try reader.read(ProtobufString.self)
                case 3: ex = try reader.read(ProtobufString.self)
                case 4: iOSPushSound = try reader.read(ProtobufString.self)
                case 5: iOSBadgeCount = try reader.read(ProtobufBool.self)
                case 6: signalInfo = try reader.read(ProtobufString.self)
                default: break
                }
            }
        }

        /// Writes the fields that are not their default.
        public func encode(to writer: inout ProtobufWriter) {
            writer.writeUnlessDefault(title, as: ProtobufString.self, field: 1)
            writer.writeUnlessDefault(desc, as: ProtobufString.self, field: 2)
            writer.writeUnlessDefault(ex, as: ProtobufString.self, field: 3)
            writer.writeUnlessDefault(iOSPushSound, as: ProtobufString.self, field: 4)
            writer.writeUnlessDefault(iOSBadgeCount, as: ProtobufBool.self, field: 5)
            writer.writeUnlessDefault(signalInfo, as: ProtobufString.self, field: 6)
        }
    }
}
