/// The protobuf messages of Easemob / Agora Chat's msync protocol (package `easemob.pb`), as the
/// schema embedded in the Web SDK declares them (`reference/easemob-msync-schema.json`).
///
/// The schema is proto2, encoded by the SDK with protobuf.js: a singular field is an optional
/// with explicit presence (nil is absent; a zero that is set is written, as the SDK writes
/// `deviceId: 0`), repeated scalars are unpacked (decoding accepts packed runs too), and fields
/// are written in field-number order. Field names are the schema's; enums keep unknown numbers.
public enum MsyncPB {
    /// Every message type of this namespace: each one's `init(protobufBytes:)` takes arbitrary
    /// bytes (the fuzz targets iterate this list).
    public static let messageTypes: [any ProtobufMessage.Type] = [
        MSync.self, JID.self, Provision.self, Status.self, RedirectInfo.self, CommSyncUL.self, CommSyncDL.self,
        CommNotice.self, CommUnreadUL.self, CommUnreadDL.self, MetaQueue.self, Meta.self, MessageBody.self,
        MessageBody.Content.self, MessageBody.Content.Size.self, MessageBody.MessageConfig.self, KeyValue.self,
        StatisticsBody.self, Logout.self,
    ]
}
