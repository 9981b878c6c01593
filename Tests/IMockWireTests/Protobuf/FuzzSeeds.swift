import IMockWire

/// The real frames of the references, as the seed corpus of the protobuf fuzz targets
/// (`Tests/Fuzz/protobuf/corpus/<name>.bin`; `FuzzSeedTests` keeps the files equal to these).
enum FuzzSeeds {
    static var all: [(name: String, bytes: [UInt8])] {
        [
            ("msync-provision-reply-minimum", WebSDKFrameTests.minimumReply),
            ("msync-provision-reply-recommended", WebSDKFrameTests.recommendedReply),
            ("msync-provision-reply-token-expired", provisionFailure.protobufBytes()),
            ("msync-provision-client", clientProvision.protobufBytes()),
            ("msync-unread-request", hex("40 01")),
            ("msync-unread-reply", MsyncPB.MSync(command: .unread, payload: MsyncSamples.commUnreadDL).protobufBytes()),
            ("msync-sync-page", MsyncPB.MSync(command: .sync, payload: MsyncSamples.commSyncDL).protobufBytes()),
            ("msync-sync-send", MsyncPB.MSync(command: .sync, payload: MsyncSamples.commSyncUL).protobufBytes()),
            ("msync-notice", MsyncPB.MSync(command: .notice, payload: MsyncPB.CommNotice(queue: MsyncSamples.bob)).protobufBytes()),
            ("msync-kick", MsyncPB.MSync(command: .sync, payload: kick).protobufBytes()),
            ("msync-logout", MsyncPB.MSync(command: .logout, payload: MsyncSamples.logout).protobufBytes()),
            ("openim-get-max-seq-req", OpenIMPB.GetMaxSeqReq(userID: "alice").protobufBytes()),
            ("openim-get-max-seq-resp", OpenIMSamples.getMaxSeqResp.protobufBytes()),
            ("openim-pull-req", OpenIMSamples.pullRequest.protobufBytes()),
            ("openim-pull-resp", OpenIMSamples.pullResponse.protobufBytes()),
            ("openim-send-msg-data", OpenIMSamples.textMessage.protobufBytes()),
            ("openim-send-resp", OpenIMSamples.sendResponse.protobufBytes()),
            ("openim-push", OpenIMSamples.push.protobufBytes()),
            ("openim-sub-tips", OpenIMSamples.tips.protobufBytes()),
        ]
    }

    /// The client's PROVISION of the Web SDK (`easemob-web-sdk.md` §1.3 step 3).
    static var clientProvision: MsyncPB.MSync {
        var provision = MsyncPB.Provision()
        provision.osType = .other
        provision.version = "4.17.0"
        provision.compressType = [.none]
        provision.encryptType = [.none]
        provision.deviceUuid = "wx_1795965415701"
        provision.deviceName = "webim"
        provision.resource = "webim_wx_1795965415701"
        provision.authToken = #"{"token":"$t$YWMtAbC-123"}"#
        provision.sessionId = "1795965415701:"
        provision.actionVersion = "v5.1"
        var frame = MsyncPB.MSync(command: .provision, payload: provision)
        frame.version = .msyncV1
        frame.guid = MsyncSamples.alice
        frame.auth = "$t$YWMtAbC-123"
        frame.deviceId = 0
        frame.encryptType = [.none]
        return frame
    }

    static var provisionFailure: MsyncPB.MSync {
        var provision = MsyncPB.Provision()
        provision.status = MsyncPB.Status(errorCode: .fail, reason: "Sorry, token expired")
        return MsyncPB.MSync(command: .provision, payload: provision)
    }

    /// The kick of §1.5: a STATISTIC meta with operation 4 in an unsolicited sync page.
    static var kick: MsyncPB.CommSyncDL {
        var meta = MsyncPB.Meta()
        meta.id = 1
        meta.from = MsyncSamples.alice
        meta.to = MsyncSamples.alice
        meta.ns = .statistic
        meta.payload = MsyncPB.StatisticsBody(operation: .userKickedByOtherDevice, reason: "tablet").protobufBytes()
        var page = MsyncPB.CommSyncDL()
        page.status = MsyncPB.Status()
        page.metas = [meta]
        page.queue = MsyncSamples.alice
        page.isLast = true
        return page
    }
}
