/// The protobuf payloads of the OpenIM gateway (the `Data` bytes inside its gob or JSON frames),
/// from `openimsdk/protocol` (`sdkws/sdkws.proto`, `msg/msg.proto`, `push/push.proto`; packages
/// `openim.sdkws`, `openim.msg`, `openim.push`).
///
/// The schema is proto3: a singular scalar is written only when it is not its default (0, false,
/// empty), a message field is an optional, repeated scalars are packed, maps are sorted by key
/// when written. Field names are the schema's (`Msgs` is `msgs`).
///
/// | reqIdentifier | request | response / push |
/// |---|---|---|
/// | 1001 GetNewestSeq | ``GetMaxSeqReq`` | ``GetMaxSeqResp`` |
/// | 1002 PullMsgBySeqList | ``PullMessageBySeqsReq`` | ``PullMessageBySeqsResp`` |
/// | 1003 SendMsg | ``MsgData`` | ``SendMsgResp`` |
/// | 2001 PushMsg | — | ``PushMessages`` |
/// | 2002 KickOnlineMsg | — | empty |
/// | 2003 LogoutMsg | ``DelUserPushTokenReq`` | ``DelUserPushTokenResp`` |
/// | 2004 SetBackgroundStatus | ``SetAppBackgroundStatusReq`` | ``SetAppBackgroundStatusResp`` |
/// | 2005 SubUserOnlineStatus | ``SubUserOnlineStatus`` | ``SubUserOnlineStatusTips`` |
public enum OpenIMPB {
    /// Every distinct message type of this namespace: each one's `init(protobufBytes:)` takes
    /// arbitrary bytes (the fuzz targets iterate this list).
    public static let messageTypes: [any ProtobufMessage.Type] = [
        GetMaxSeqReq.self, GetMaxSeqResp.self, SeqRange.self, PullMessageBySeqsReq.self, PullMsgs.self,
        MsgsByConversation.self, MsgData.self, OfflinePushInfo.self, SendMsgReq.self, SendMsgResp.self,
        SetAppBackgroundStatusReq.self, SubUserOnlineStatus.self, SubUserOnlineStatusTips.self,
        SubUserOnlineStatusElem.self, DelUserPushTokenReq.self, ProtobufEmptyMessage.self,
    ]
}
