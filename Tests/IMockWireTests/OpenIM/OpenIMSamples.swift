import IMockWire

/// OpenIM payloads with every field set (edges included). `PythonInteropTests` builds the same
/// values with the real protobuf classes, so a change here needs the same change there.
enum OpenIMSamples {
    static var offlinePushInfo: OpenIMPB.OfflinePushInfo {
        var info = OpenIMPB.OfflinePushInfo()
        info.title = "title"
        info.desc = "desc"
        info.ex = "ex"
        info.iOSPushSound = "sound"
        info.iOSBadgeCount = true
        info.signalInfo = "signal"
        return info
    }

    static var msgData: OpenIMPB.MsgData {
        var message = OpenIMPB.MsgData()
        message.sendID = "alice"
        message.recvID = "bob"
        message.groupID = "group"
        message.clientMsgID = "client-1"
        message.serverMsgID = "server-1"
        message.senderPlatformID = -5
        message.senderNickname = "Alice é"
        message.senderFaceURL = "https://example.invalid/a.png"
        message.sessionType = 1
        message.msgFrom = 100
        message.contentType = 101
        message.content = Array(#"{"content":"hi"}"#.utf8)
        message.seq = .max
        message.sendTime = 1_795_965_415_701
        message.createTime = -1
        message.status = 2
        message.isRead = true
        message.options = ["history": true, "unread": false]
        message.offlinePushInfo = offlinePushInfo
        message.atUserIDList = ["bob", ""]
        message.attachedInfo = "attached"
        message.ex = "extra"
        return message
    }

    /// The text message the Python client sends and receives (only the fields it uses).
    static var textMessage: OpenIMPB.MsgData {
        var message = OpenIMPB.MsgData()
        message.sendID = "bob"
        message.recvID = "alice"
        message.clientMsgID = "c2"
        message.serverMsgID = "s2"
        message.senderPlatformID = 5
        message.sessionType = 1
        message.msgFrom = 100
        message.contentType = 101
        message.content = Array(#"{"content":"hello"}"#.utf8)
        message.seq = 1
        message.sendTime = 1_795_965_415_701
        message.createTime = 1_795_965_415_700
        message.status = 2
        return message
    }

    static var getMaxSeqResp: OpenIMPB.GetMaxSeqResp {
        var response = OpenIMPB.GetMaxSeqResp()
        response.maxSeqs = ["si_alice_bob": 1, "sg_group": 0, "z_max": .max]
        response.minSeqs = ["si_alice_bob": -1]
        return response
    }

    static var pullRequest: OpenIMPB.PullMessageBySeqsReq {
        var request = OpenIMPB.PullMessageBySeqsReq()
        request.userID = "alice"
        request.seqRanges = [
            OpenIMPB.SeqRange(conversationID: "si_alice_bob", begin: 1, end: 20, num: 20),
            OpenIMPB.SeqRange(conversationID: "sg_group", begin: 0, end: .min, num: 0),
        ]
        request.order = .desc
        return request
    }

    static var pullResponse: OpenIMPB.PullMessageBySeqsResp {
        var response = OpenIMPB.PullMessageBySeqsResp()
        response.msgs = [
            "si_alice_bob": OpenIMPB.PullMsgs(msgs: [textMessage, msgData], isEnd: true, endSeq: 1),
            "empty": OpenIMPB.PullMsgs(),
        ]
        response.notificationMsgs = ["n_alice": OpenIMPB.PullMsgs(msgs: [OpenIMPB.MsgData()], isEnd: false, endSeq: -7)]
        return response
    }

    static var push: OpenIMPB.PushMessages {
        var push = OpenIMPB.PushMessages()
        push.msgs = ["si_alice_bob": OpenIMPB.PullMsgs(msgs: [textMessage])]
        return push
    }

    static var sendResponse: OpenIMPB.SendMsgResp {
        var response = OpenIMPB.SendMsgResp(serverMsgID: "s3", clientMsgID: "c3", sendTime: 1_795_965_415_701)
        response.modify = textMessage
        return response
    }

    static var sendRequest: OpenIMPB.SendMsgReq {
        var request = OpenIMPB.SendMsgReq()
        request.msgData = msgData
        return request
    }

    static var background: OpenIMPB.SetAppBackgroundStatusReq {
        var request = OpenIMPB.SetAppBackgroundStatusReq()
        request.userID = "alice"
        request.isBackground = true
        return request
    }

    static var subscribe: OpenIMPB.SubUserOnlineStatus {
        var request = OpenIMPB.SubUserOnlineStatus()
        request.subscribeUserID = ["bob", "carol"]
        request.unsubscribeUserID = ["dave"]
        return request
    }

    static var tips: OpenIMPB.SubUserOnlineStatusTips {
        var tips = OpenIMPB.SubUserOnlineStatusTips()
        tips.subscribers = [
            OpenIMPB.SubUserOnlineStatusElem(userID: "bob", onlinePlatformIDs: [1, 5, -1]),
            OpenIMPB.SubUserOnlineStatusElem(userID: "carol", onlinePlatformIDs: []),
        ]
        return tips
    }

    static var logout: OpenIMPB.DelUserPushTokenReq {
        var request = OpenIMPB.DelUserPushTokenReq()
        request.userID = "alice"
        request.platformID = 5
        return request
    }

    /// One fully set instance of every type of ``OpenIMPB/messageTypes``.
    static var all: [any ProtobufMessage] {
        [
            OpenIMPB.GetMaxSeqReq(userID: "alice"), getMaxSeqResp, pullRequest.seqRanges[0], pullRequest,
            pullResponse.msgs["si_alice_bob"]!, pullResponse, msgData, offlinePushInfo, sendRequest, sendResponse,
            background, subscribe, tips, tips.subscribers[0], logout, OpenIMPB.DelUserPushTokenResp(),
        ]
    }
}
