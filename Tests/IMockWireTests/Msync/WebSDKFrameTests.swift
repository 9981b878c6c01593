import IMockCore
import IMockWire
import Testing

/// The frames of `reference/easemob-web-sdk.md` §1.3–1.5, as the SDK sends and needs them.
@Suite("Msync frames of the Web SDK")
struct WebSDKFrameTests {
    static let minimumReply = hex("40 03 4a 02 42 00")
    static let resource = "webim_wx_1795965415701"
    static let expiry = #"{"expires_in":1796051815710}"#
    static let recommendedReply =
        hex("40 03 4a 39 | 42 00 | 6a 16") + Array(resource.utf8) + hex("92 01 1c") + Array(expiry.utf8)

    @Test func theSixByteMinimumReplyDecodes() throws {
        let frame = try MsyncPB.MSync(protobufBytes: Self.minimumReply)
        #expect(frame.command == .provision)
        let provision = try frame.decodePayload(as: MsyncPB.Provision.self)
        #expect(provision.status == MsyncPB.Status())
        #expect(provision.status?.errorCode == nil)
        #expect(provision.resource == nil)
    }

    @Test func theSixByteMinimumReplyIsWhatTheEncoderWrites() {
        var provision = MsyncPB.Provision()
        provision.status = MsyncPB.Status()
        #expect(MsyncPB.MSync(command: .provision, payload: provision).protobufBytes() == Self.minimumReply)
    }

    @Test func theRecommendedReplyDecodes() throws {
        let frame = try MsyncPB.MSync(protobufBytes: Self.recommendedReply)
        #expect(frame.command == .provision)
        let provision = try frame.decodePayload(as: MsyncPB.Provision.self)
        #expect(provision.status == MsyncPB.Status())
        #expect(provision.resource == Self.resource)
        #expect(provision.authToken == Self.expiry)
        let token = try JSONValue.parse(Array(provision.authToken!.utf8))
        #expect(token["expires_in"] == .int(1_796_051_815_710))
    }

    @Test func theRecommendedReplyIsWhatTheEncoderWrites() {
        var provision = MsyncPB.Provision()
        provision.status = MsyncPB.Status()
        provision.resource = Self.resource
        provision.authToken = Self.expiry
        #expect(MsyncPB.MSync(command: .provision, payload: provision).protobufBytes() == Self.recommendedReply)
    }

    /// The client's PROVISION of §1.3 step 3, with the bytes written out field by field.
    @Test func theClientProvisionEncodesAsTheSDKWritesItAndDecodesBack() throws {
        let milliseconds = MsyncSamples.milliseconds
        let token = MsyncSamples.token
        let jid =
            text(0x0A, "org#app") + text(0x12, "alice") + text(0x1A, "easemob.com")
            + text(0x22, "webim_wx_" + milliseconds)
        let payload =
            hex("08 10") + text(0x12, "4.17.0") + hex("28 00 30 00") + text(0x4A, "wx_" + milliseconds)
            + text(0x62, "webim") + text(0x6A, "webim_wx_" + milliseconds) + hex("8a 01") + text(nil, "v5.1")
            + hex("92 01") + text(nil, #"{"token":"\#(token)"}"#) + hex("a2 01") + text(nil, milliseconds + ":")
        let expected =
            hex("08 00") + hex("12") + [UInt8(jid.count)] + jid + text(0x1A, token) + hex("40 03") + hex("4a")
            + [UInt8(payload.count)] + payload + hex("50 00 58 00")
        let frame = MsyncSamples.clientProvision
        #expect(frame.protobufBytes() == expected)

        let decoded = try MsyncPB.MSync(protobufBytes: expected)
        #expect(decoded == frame)
        let provision = try decoded.decodePayload(as: MsyncPB.Provision.self)
        #expect(provision.osType == .other)
        #expect(provision.compressType == [.none])
        #expect(provision.authToken == #"{"token":"\#(token)"}"#)
        #expect(decoded.guid?.clientResource == provision.resource)
    }

    @Test func theUnreadRequestIsTwoBytesAndItsPayloadIsEmpty() throws {
        let frame = try MsyncPB.MSync(protobufBytes: hex("40 01"))
        #expect(frame.command == .unread)
        #expect(frame.payload == nil)
        #expect(try frame.decodePayload(as: MsyncPB.CommUnreadUL.self) == MsyncPB.CommUnreadUL())
    }

    @Test func theLoginStatisticAndItsMetaDecode() throws {
        var statistic = MsyncPB.Meta()
        statistic.id = 1_795_965_415_701
        statistic.ns = .statistic
        statistic.payload = MsyncPB.StatisticsBody(operation: .information).protobufBytes()
        var sync = MsyncPB.CommSyncUL()
        sync.meta = statistic
        let frame = try MsyncPB.MSync(protobufBytes: MsyncPB.MSync(command: .sync, payload: sync).protobufBytes())
        let meta = try #require(try frame.decodePayload(as: MsyncPB.CommSyncUL.self).meta)
        #expect(meta.ns == .statistic)
        #expect(try meta.decodePayload(as: MsyncPB.StatisticsBody.self).operation == .information)
        // operation INFORMATION (0) is present, so it is written.
        #expect(meta.payload == hex("08 00"))
    }

    @Test func aTextMessageSyncReplyRoundTrips() throws {
        var body = MsyncPB.MessageBody()
        body.type = .chat
        body.from = MsyncSamples.bob
        body.to = MsyncSamples.alice
        body.contents = [MsyncPB.MessageBody.Content(text: "hello")]
        var meta = MsyncPB.Meta()
        meta.id = 1_234_567_890_123_456_789
        meta.from = MsyncSamples.bob
        meta.to = MsyncPB.JID(appKey: "org#app", name: "alice", domain: "easemob.com")
        meta.timestamp = 1_795_965_415_701
        meta.ns = .chat
        meta.payload = body.protobufBytes()
        var page = MsyncPB.CommSyncDL()
        page.status = MsyncPB.Status()
        page.metas = [meta]
        page.nextKey = 9
        page.queue = MsyncSamples.bob
        page.isLast = true
        page.timestamp = 1_795_965_415_702
        let frame = try MsyncPB.MSync(protobufBytes: MsyncPB.MSync(command: .sync, payload: page).protobufBytes())
        let decoded = try frame.decodePayload(as: MsyncPB.CommSyncDL.self)
        #expect(decoded == page)
        #expect(decoded.queue?.name == "bob")
        let text = try decoded.metas[0].decodePayload(as: MsyncPB.MessageBody.self)
        #expect(text.contents.first?.text == "hello")
        #expect(text.contents.first?.type == nil)
    }

    @Test func aKickIsAStatisticMetaInASyncReply() throws {
        let frame = MsyncPB.MSync(command: .sync, payload: MsyncSamples.kick)
        let decoded = try MsyncPB.MSync(protobufBytes: frame.protobufBytes()).decodePayload(as: MsyncPB.CommSyncDL.self)
        #expect(decoded.queue == MsyncSamples.alice)
        #expect(decoded.metas[0].ns == .statistic)
        let body = try decoded.metas[0].decodePayload(as: MsyncPB.StatisticsBody.self)
        #expect(body.operation == .userKickedByOtherDevice)
        #expect(body.operation?.rawValue == 4)
        #expect(body.reason == "tablet")
    }

    @Test func aProvisionFailureCarriesCodeAndReason() throws {
        let bytes = MsyncSamples.provisionFailure.protobufBytes()
        #expect(bytes == hex("40 03 4a 1a 42 18 08 01 12 14") + Array("Sorry, token expired".utf8))
        let status = try MsyncPB.MSync(protobufBytes: bytes).decodePayload(as: MsyncPB.Provision.self).status
        #expect(status == MsyncPB.Status(errorCode: .fail, reason: "Sorry, token expired"))
    }

    @Test func theLogoutFrameDecodes() throws {
        var logout = MsyncPB.Logout()
        logout.sessionId = "1795965415701:"
        logout.reason = "inner:logout"
        let frame = MsyncPB.MSync(command: .logout, payload: logout)
        let decoded = try MsyncPB.MSync(protobufBytes: frame.protobufBytes())
        #expect(decoded.command == .logout)
        #expect(try decoded.decodePayload(as: MsyncPB.Logout.self) == logout)
    }

    /// A length-delimited field whose length is under 128: `tag` (none when nil), length, UTF-8.
    private func text(_ tag: UInt8?, _ value: String) -> [UInt8] {
        (tag.map { [$0] } ?? []) + [UInt8(value.utf8.count)] + Array(value.utf8)
    }
}
