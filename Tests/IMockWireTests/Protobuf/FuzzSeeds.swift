import IMockWire

/// The real frames of the references, as the seed corpus of the protobuf fuzz targets
/// (`Tests/Fuzz/protobuf/corpus/<name>.bin`; `FuzzSeedTests` keeps the files equal to these).
enum FuzzSeeds {
    static var all: [(name: String, bytes: [UInt8])] {
        [
            ("msync-provision-reply-minimum", WebSDKFrameTests.minimumReply),
            ("msync-provision-reply-recommended", WebSDKFrameTests.recommendedReply),
            ("msync-provision-reply-token-expired", MsyncSamples.provisionFailure.protobufBytes()),
            ("msync-provision-client", MsyncSamples.clientProvision.protobufBytes()),
            ("msync-unread-request", hex("40 01")),
            ("msync-unread-reply", MsyncPB.MSync(command: .unread, payload: MsyncSamples.commUnreadDL).protobufBytes()),
            ("msync-sync-page", MsyncPB.MSync(command: .sync, payload: MsyncSamples.commSyncDL).protobufBytes()),
            ("msync-sync-send", MsyncPB.MSync(command: .sync, payload: MsyncSamples.commSyncUL).protobufBytes()),
            ("msync-notice", MsyncPB.MSync(command: .notice, payload: MsyncPB.CommNotice(queue: MsyncSamples.bob)).protobufBytes()),
            ("msync-kick", MsyncPB.MSync(command: .sync, payload: MsyncSamples.kick).protobufBytes()),
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
}
