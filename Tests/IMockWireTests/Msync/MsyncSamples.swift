import IMockWire

/// Messages of every msync type with every field set (edges included), for round trips.
enum MsyncSamples {
    static let appKey = "org#app"
    /// The client's clock when it logged in, as the Web SDK puts it in ids.
    static let milliseconds = "1795965415701"
    /// The token as the SDK sends it.
    static let token = "$t$YWMtAbC-123"
    static let alice = MsyncPB.JID(appKey: appKey, name: "alice", domain: "easemob.com", clientResource: "webim_wx_" + milliseconds)
    static let bob = MsyncPB.JID(appKey: appKey, name: "bob", domain: "easemob.com")

    static var keyValues: [MsyncPB.KeyValue] {
        [
            MsyncPB.KeyValue(key: "b", type: .bool, value: .varint(1)),
            MsyncPB.KeyValue(key: "n", type: .llint, value: .varint(.min)),
            MsyncPB.KeyValue(key: "f", type: .float, value: .float(-0.5)),
            MsyncPB.KeyValue(key: "d", type: .double, value: .double(1e300)),
            MsyncPB.KeyValue(key: "s", type: .jsonString, value: .string(#"{"a":1}"#)),
            MsyncPB.KeyValue(key: "u", type: .unrecognized(42), value: nil),
        ]
    }

    static var status: MsyncPB.Status {
        var status = MsyncPB.Status(errorCode: .redirect, reason: "go elsewhere")
        status.redirectInfo = [MsyncPB.RedirectInfo(host: "127.0.0.1", port: 65535), MsyncPB.RedirectInfo()]
        return status
    }

    static var content: MsyncPB.MessageBody.Content {
        var content = MsyncPB.MessageBody.Content()
        content.type = .image
        content.text = "héllo"
        content.latitude = 39.9
        content.longitude = -116.4
        content.address = "addr"
        content.displayName = "pic.png"
        content.remotePath = "https://example.invalid/pic"
        content.secretKey = "secret"
        content.fileLength = .max
        content.action = "act"
        content.params = keyValues
        content.duration = -1
        content.size = MsyncPB.MessageBody.Content.Size(width: 640, height: 480)
        content.thumbnailRemotePath = "thumb"
        content.thumbnailSecretKey = "tsecret"
        content.thumbnailDisplayName = "t.png"
        content.thumbnailFileLength = .min
        content.thumbnailSize = MsyncPB.MessageBody.Content.Size()
        content.customEvent = "event"
        content.customExts = [MsyncPB.KeyValue(key: "k", type: .string, value: .string("v"))]
        content.buildingName = "b"
        content.subType = .gif
        content.title = "title"
        content.summary = "summary"
        content.combineLevel = 3
        return content
    }

    static var messageBody: MsyncPB.MessageBody {
        var body = MsyncPB.MessageBody()
        body.type = .chat
        body.from = bob
        body.to = alice
        body.contents = [MsyncPB.MessageBody.Content(text: "hi"), content]
        body.ext = keyValues
        body.ackMessageId = .max
        var config = MsyncPB.MessageBody.MessageConfig()
        config.allowGroupAck = true
        body.msgConfig = config
        body.ackContent = "ack"
        body.meta = "meta"
        body.editMessageId = 1
        body.editScope = .bodyAndExt
        return body
    }

    static var meta: MsyncPB.Meta {
        var meta = MsyncPB.Meta()
        meta.id = .max
        meta.from = bob
        meta.to = alice
        meta.timestamp = 1 << 63
        meta.ns = .chat
        meta.payload = messageBody.protobufBytes()
        meta.routetype = .direct
        meta.ext = keyValues
        meta.meta = [0, 1, 255]
        meta.directedUsers = ["alice", ""]
        return meta
    }

    static var provision: MsyncPB.Provision {
        var provision = MsyncPB.Provision()
        provision.osType = .custom
        provision.version = "4.17.0"
        provision.networkType = .wifi
        provision.appSign = "sign"
        provision.compressType = [.none, .zlib]
        provision.encryptType = [.none, .aes256CBC]
        provision.encryptKey = "key"
        provision.status = status
        provision.deviceUuid = "wx_1795965415701"
        provision.isManualLogin = false
        provision.password = "pw"
        provision.deviceName = "webim"
        provision.resource = "webim_wx_1795965415701"
        provision.auth = "auth"
        provision.serviceId = "svc"
        provision.actionVersion = "v5.1"
        provision.authToken = #"{"token":"$t$abc"}"#
        provision.osCustomValue = .max
        provision.sessionId = "1795965415701:"
        provision.reason = "ext"
        return provision
    }

    static var msync: MsyncPB.MSync {
        var msync = MsyncPB.MSync(command: .provision, payload: provision)
        msync.version = .msyncV2
        msync.guid = alice
        msync.auth = "$t$abc"
        msync.compressAlgorithm = 1
        msync.crypto = 2
        msync.userAgent = "ua"
        msync.pov = .max
        msync.deviceId = .max
        msync.encryptType = [.none, .unrecognized(-1)]
        msync.encryptKey = "k"
        return msync
    }

    static var commSyncUL: MsyncPB.CommSyncUL {
        var sync = MsyncPB.CommSyncUL()
        sync.meta = meta
        sync.key = 12
        sync.queue = bob
        sync.isRoam = true
        sync.lastFullRoamKey = 0
        return sync
    }

    static var commSyncDL: MsyncPB.CommSyncDL {
        var sync = MsyncPB.CommSyncDL()
        sync.status = MsyncPB.Status()
        sync.metaId = 1
        sync.serverId = 2
        sync.metas = [meta, MsyncPB.Meta()]
        sync.nextKey = 3
        sync.queue = bob
        sync.isLast = true
        sync.timestamp = 1_795_965_415_701
        sync.isRoam = false
        return sync
    }

    static var commUnreadDL: MsyncPB.CommUnreadDL {
        var unread = MsyncPB.CommUnreadDL()
        unread.status = MsyncPB.Status(errorCode: .ok)
        unread.unread = [MsyncPB.MetaQueue(queue: bob, n: 2), MsyncPB.MetaQueue()]
        unread.timestamp = 1_795_965_415_701
        return unread
    }

    static var statistics: MsyncPB.StatisticsBody {
        var statistics = MsyncPB.StatisticsBody(operation: .userLoginAnotherDevice, reason: "tablet")
        statistics.os = .other
        statistics.version = "4.17.0"
        statistics.network = .wire
        statistics.imTime = 1
        statistics.chatTime = .max
        statistics.location = "here"
        return statistics
    }

    static var logout: MsyncPB.Logout {
        var logout = MsyncPB.Logout()
        logout.sessionId = "1795965415701:"
        logout.reason = "inner:logout"
        logout.status = MsyncPB.Status()
        return logout
    }

    /// The client's PROVISION of the Web SDK (`easemob-web-sdk.md` §1.3 step 3).
    static var clientProvision: MsyncPB.MSync {
        var provision = MsyncPB.Provision()
        provision.osType = .other
        provision.version = "4.17.0"
        provision.compressType = [.none]
        provision.encryptType = [.none]
        provision.deviceUuid = "wx_" + milliseconds
        provision.deviceName = "webim"
        provision.resource = "webim_wx_" + milliseconds
        provision.authToken = #"{"token":"\#(token)"}"#
        provision.sessionId = milliseconds + ":"
        provision.actionVersion = "v5.1"
        var frame = MsyncPB.MSync(command: .provision, payload: provision)
        frame.version = .msyncV1
        frame.guid = alice
        frame.auth = token
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
        meta.from = alice
        meta.to = alice
        meta.ns = .statistic
        meta.payload = MsyncPB.StatisticsBody(operation: .userKickedByOtherDevice, reason: "tablet").protobufBytes()
        var page = MsyncPB.CommSyncDL()
        page.status = MsyncPB.Status()
        page.metas = [meta]
        page.queue = alice
        page.isLast = true
        return page
    }

    /// One fully set instance of every message type of ``MsyncPB/messageTypes``.
    static var all: [any ProtobufMessage] {
        [
            msync, alice, provision, status, MsyncPB.RedirectInfo(host: "h", port: 1), commSyncUL, commSyncDL,
            MsyncPB.CommNotice(queue: bob), MsyncPB.CommUnreadUL(), commUnreadDL, MsyncPB.MetaQueue(queue: bob, n: .max),
            meta, messageBody, content, MsyncPB.MessageBody.Content.Size(width: 1, height: 2), messageBody.msgConfig!,
            keyValues[3], statistics, logout,
        ]
    }
}
