import IMockCommon
import IMockCore
import IMockWire
import Testing

/// The msync dialect without sockets: what it makes of the Web SDK's frames and what it sends
/// for the engine's outputs (docs/PROTOCOL-MSYNC.md).
@Suite("The msync dialect")
struct MsyncDialectTests {
    static let expiry: Int64 = 1_796_051_815_710

    /// A dialect whose device logged in.
    static func loggedIn(pageSize: Int = MsyncDialect.defaultPageSize) -> MsyncDialect {
        var dialect = MsyncDialect(pageSize: pageSize)
        _ = dialect.decode(.binary(MsyncClient.provision()))
        _ = dialect.encode(reply: .loginAccepted(resource: "webim_wx_1", tokenExpiresAt: expiry, serverTime: 1), tag: nil)
        return dialect
    }

    @Test("a PROVISION is a login: app key, user and token from the envelope, the device from the Provision")
    func provisionIsALogin() throws {
        var dialect = MsyncDialect()
        let inputs = dialect.decode(.binary(MsyncClient.provision(loginExtension: "ext")))
        let device = DeviceDescription(
            platform: .easemob(.web), name: "webim", uuid: "wx_1", resource: "webim_wx_1", extensionInfo: "ext")
        let expected = LoginRequest(
            appKey: "org#app", user: "alice", token: "TOKEN", device: device, renewsTokenOverREST: true,
            tokenWarningDelayMs: LoginRequest.heartbeatWarningDelayMs)
        #expect(inputs == [.command(.login(RequestTag("provision"), expected))])
    }

    @Test("the token comes from MSync.auth or Provision.authToken; two that differ make no token")
    func tokenPlaces() {
        #expect(MsyncProvision.token(auth: "$t$A", authToken: nil) == "A")
        #expect(MsyncProvision.token(auth: nil, authToken: #"{"token":"$t$B"}"#) == "B")
        #expect(MsyncProvision.token(auth: "$t$A", authToken: #"{"token":"$t$A"}"#) == "A")
        #expect(MsyncProvision.token(auth: "$t$A", authToken: #"{"token":"$t$B"}"#) == "")
        #expect(MsyncProvision.token(auth: nil, authToken: "not json") == "")
        #expect(MsyncProvision.token(auth: "raw", authToken: nil) == "raw")
    }

    @Test("an osType the schema does not know is a device the engine refuses")
    func unknownOSType() {
        var dialect = MsyncDialect()
        let inputs = dialect.decode(.binary(MsyncClient.provision(osType: .unrecognized(99))))
        guard case .command(.login(_, let request))? = inputs.first else {
            Issue.record("no login: \(inputs)")
            return
        }
        #expect(request.device.uuid == "")
        #expect(request.token == "TOKEN")
    }

    @Test("the accepted login is the reply the reference recommends, byte for byte")
    func acceptedLogin() throws {
        var dialect = MsyncDialect()
        _ = dialect.decode(.binary(MsyncClient.provision()))
        let reply = dialect.encode(
            reply: .loginAccepted(resource: "webim_wx_1795965415701", tokenExpiresAt: Self.expiry, serverTime: 1), tag: nil)
        let expected = hex("40 03 4a 39 42 00 6a 16") + Array("webim_wx_1795965415701".utf8)
            + hex("92 01 1c") + Array(#"{"expires_in":1796051815710}"#.utf8)
        #expect(reply == [.binary(expected)])
        let never = dialect.encode(reply: .loginAccepted(resource: "r", tokenExpiresAt: nil, serverTime: 1), tag: nil)
        #expect(try MsyncClient.payload(never[0], as: MsyncPB.Provision.self).authToken == nil)
    }

    @Test("a base64 text message is answered in base64 text, a binary one in binary")
    func framingFollowsTheRequest() throws {
        var dialect = MsyncDialect()
        _ = dialect.decode(.text(Base64.encode(MsyncClient.provision())))
        let reply = dialect.encode(reply: .loginAccepted(resource: "r", tokenExpiresAt: nil, serverTime: 1), tag: nil)
        guard case .text = reply.first else { Issue.record("not text: \(reply)"); return }
        _ = dialect.decode(.binary(MsyncClient.unread))
        dialect.observe(serverTimeMs: 5)
        let pong = dialect.encode(reply: .pong(serverTime: 5), tag: RequestTag("unread"))
        guard case .binary = pong.first else { Issue.record("not binary: \(pong)"); return }
    }

    @Test("UNREAD is a ping; its answer lists the queues waiting and the server time")
    func heartbeat() throws {
        var dialect = Self.loggedIn()
        #expect(dialect.decode(.binary(MsyncClient.unread)) == [.command(.ping(RequestTag("unread")))])
        _ = dialect.encode(push: .offlineStart(count: 3))
        for id in 1...2 { _ = dialect.encode(push: .message(.sample(id))) }
        _ = dialect.encode(push: .message(.sample(3, from: "carol")))
        _ = dialect.encode(push: .offlineFinish)
        let reply = try MsyncClient.payload(
            dialect.encode(reply: .pong(serverTime: 42), tag: RequestTag("unread"))[0], as: MsyncPB.CommUnreadDL.self)
        #expect(reply.status == MsyncPB.Status())
        #expect(reply.timestamp == 42)
        #expect(reply.unread.map { "\($0.queue?.name ?? "")=\($0.n ?? 0)" } == ["bob=2", "carol=1"])
    }

    @Test("pages: isLast false with nextKey while messages remain, confirmed by the key, acked then; a pull without the key repeats the page")
    func paging() throws {
        var dialect = Self.loggedIn(pageSize: 2)
        _ = dialect.encode(push: .offlineStart(count: 5))
        for id in 1...5 { #expect(dialect.encode(push: .message(.sample(id))) == []) }
        _ = dialect.encode(push: .offlineFinish)

        func pull(_ key: UInt64?) throws -> (acks: [String], page: MsyncPB.CommSyncDL) {
            let inputs = dialect.decode(.binary(MsyncClient.pull("bob", key: key)))
            var acks: [String] = []
            var page = MsyncPB.CommSyncDL()
            for input in inputs {
                switch input {
                case .command(.ack(_, let id)): acks.append(id)
                case .replyCarrying(let message, []): page = try MsyncClient.payload(message, as: MsyncPB.CommSyncDL.self)
                default: Issue.record("unexpected \(input)")
                }
            }
            return (acks, page)
        }
        var (acks, page) = try pull(nil)
        #expect(acks.isEmpty)
        #expect(try MsyncClient.texts(page) == ["m1", "m2"])
        #expect(page.isLast == false)
        #expect(page.nextKey == 2)
        #expect(page.queue?.name == "bob")
        #expect(page.metas.first?.from?.name == "bob")
        #expect(page.metas.first?.to?.domain == "easemob.com")
        #expect(page.metaId == nil)
        (acks, page) = try pull(nil)
        #expect(acks.isEmpty && page.nextKey == 2, "a pull that does not confirm gets the same page")
        (acks, page) = try pull(2)
        #expect(acks == ["1", "2"])
        #expect(try MsyncClient.texts(page) == ["m3", "m4"])
        (acks, page) = try pull(99)
        #expect(acks.isEmpty && page.nextKey == 4, "a wrong key confirms nothing")
        (acks, page) = try pull(4)
        #expect(acks == ["3", "4"])
        #expect(page.nextKey == 5)
        (acks, page) = try pull(5)
        #expect(acks == ["5"])
        #expect(page.metas.isEmpty)
        #expect(page.isLast == true)
        #expect(page.nextKey == nil)
        #expect(dialect.heldMessages.isEmpty)
    }

    @Test("a live message is announced by one NOTICE per queue, held until confirmed, then acked to the engine like an offline one")
    func liveMessages() throws {
        var dialect = Self.loggedIn()
        let first = dialect.encode(push: .message(.sample(7)))
        #expect(try MsyncClient.read(first[0]).command == .notice)
        #expect(try MsyncClient.payload(first[0], as: MsyncPB.CommNotice.self).queue?.name == "bob")
        #expect(dialect.encode(push: .message(.sample(8))) == [], "the queue was announced already")
        #expect(dialect.heldMessages.map(\.messageId) == ["7", "8"])
        let inputs = dialect.decode(.binary(MsyncClient.pull("bob")))
        guard case .replyCarrying(let reply, [])? = inputs.last else { Issue.record("\(inputs)"); return }
        #expect(try MsyncClient.texts(try MsyncClient.payload(reply, as: MsyncPB.CommSyncDL.self)) == ["m7", "m8"])
        #expect(dialect.heldMessages.count == 2, "sent but not confirmed")
        let confirmed = dialect.decode(.binary(MsyncClient.pull("bob", key: 8)))
        #expect(confirmed.dropLast() == [
            .command(.ack(RequestTag("ack:7"), messageId: "7")), .command(.ack(RequestTag("ack:8"), messageId: "8")),
        ], "the confirmed page is the device's ack of live messages too")
        #expect(dialect.heldMessages.isEmpty)
    }

    @Test("a CHAT text meta is a send; its answer carries metaId and serverId; a missing recipient is the SDK's USER_NOT_FOUND text")
    func sending() throws {
        var dialect = Self.loggedIn()
        let inputs = dialect.decode(.binary(MsyncClient.send(id: 42, to: "bob", text: "hi")))
        #expect(inputs == [.command(.send(RequestTag("send:42"), to: "bob", text: "hi"))])
        let ack = try MsyncClient.payload(
            dialect.encode(reply: .sent(messageId: "7", timestamp: 99), tag: RequestTag("send:42"))[0], as: MsyncPB.CommSyncDL.self)
        #expect(ack.metaId == 42)
        #expect(ack.serverId == 7)
        #expect(ack.timestamp == 99)
        #expect(ack.status == MsyncPB.Status())
        #expect(ack.queue?.name == "bob", "every CommSyncDL names a queue")
        _ = dialect.decode(.binary(MsyncClient.send(id: 43, to: "nobody", text: "x")))
        let refused = try MsyncClient.payload(
            dialect.encode(reply: .refused(.recipientNotFound, field: "to"), tag: RequestTag("send:43"))[0],
            as: MsyncPB.CommSyncDL.self)
        #expect(refused.metaId == 43)
        #expect(refused.status == MsyncPB.Status(errorCode: .fail, reason: "username nobody doesn't exist!"))
    }

    @Test("what imock does not relay is answered at once: group messages, non-text contents; statistics need no answer")
    func notRelayed() throws {
        var dialect = Self.loggedIn()
        var upload = MsyncPB.CommSyncUL()
        var meta = MsyncPB.Meta()
        meta.id = 5
        meta.ns = .muc
        upload.meta = meta
        let group = dialect.decode(.binary(MsyncClient.envelope(.sync, upload)))
        guard case .reply(let reply)? = group.first else { Issue.record("\(group)"); return }
        #expect(try MsyncClient.payload(reply, as: MsyncPB.CommSyncDL.self).status?.reason == "group not found")
        meta.ns = .statistic
        meta.payload = MsyncPB.StatisticsBody(operation: .information).protobufBytes()
        upload.meta = meta
        #expect(dialect.decode(.binary(MsyncClient.envelope(.sync, upload))) == [])
        var body = MsyncPB.MessageBody()
        var image = MsyncPB.MessageBody.Content()
        image.type = .image
        body.contents = [image]
        meta.ns = .chat
        meta.payload = body.protobufBytes()
        upload.meta = meta
        let inputs = dialect.decode(.binary(MsyncClient.envelope(.sync, upload)))
        guard case .reply(let refusal)? = inputs.first else { Issue.record("\(inputs)"); return }
        #expect(try MsyncClient.payload(refusal, as: MsyncPB.CommSyncDL.self).status?.errorCode == .fail)
    }

    @Test("bad input: garbage and non-base64 text close 1007, an unknown command 1003, a bad Provision answers PB_PARSER_ERROR")
    func badInput() throws {
        var dialect = MsyncDialect()
        guard case .close(let garbage)? = dialect.decode(.binary([0xFF, 0xFF])).first else { Issue.record("no close"); return }
        #expect(garbage.code == 1007)
        #expect(garbage.reason.hasPrefix("msync: protobuf:"))
        guard case .close(let text)? = dialect.decode(.text("not base64!")).first else { Issue.record("no close"); return }
        #expect(text == WireClose(code: 1007, reason: MsyncWireError.notBase64.description))
        var unknown = MsyncPB.MSync()
        unknown.command = .unrecognized(9)
        #expect(dialect.decode(.binary(unknown.protobufBytes())) == [.close(WireClose(code: 1003, reason: "msync: unknown command 9"))])
        var badProvision = MsyncPB.MSync()
        badProvision.command = .provision
        badProvision.payload = [0x0A, 0x05]
        let inputs = dialect.decode(.binary(badProvision.protobufBytes()))
        guard case .reply(let reply)? = inputs.first, case .close(let close)? = inputs.last else { Issue.record("\(inputs)"); return }
        #expect(try MsyncClient.payload(reply, as: MsyncPB.Provision.self).status?.errorCode == .pbParserError)
        #expect(close.code == 1007)
        let neither = dialect.decode(.binary(MsyncClient.envelope(.sync, MsyncPB.CommSyncUL())))
        guard case .reply(let missing)? = neither.first else { Issue.record("\(neither)"); return }
        let answer = try MsyncClient.payload(missing, as: MsyncPB.CommSyncDL.self)
        #expect(answer.status?.errorCode == .missingParameter)
        #expect(answer.queue != nil, "every CommSyncDL names a queue")
    }

    @Test("refused logins: the status the Web SDK maps to the right error, then close 4000 + code after a linger")
    func refusals() throws {
        let cases: [(SessionError, MsyncPB.Status.ErrorCode, String, UInt16)] = [
            (.tokenExpired, .fail, "Sorry, token expired", 4108),
            (.invalidToken, .fail, "Sorry, token or password does not match login info", 4104),
            (.tokenForAnotherUser, .fail, "Sorry, the token does not authenticate this user", 4202),
            (.serviceDisabled, .imForbidden, "Sorry, the app service is disabled", 4305),
            (.userDeactivated, .imForbidden, "Sorry, the user is banned", 4305),
            (.activeUserLimitReached, .permissionDenied, "Sorry, the app month live count limit", 4008),
            (.deviceRefused(.boundToAnotherDevice), .bindAnotherDevice, "Sorry, the user is bound to another device", 4213),
            (.deviceRefused(.tooManyDevices), .tooManyDevices, "Sorry, too many devices are logged in", 4214),
            (.deviceRefused(.deviceChanged), .bindAnotherDevice, "Sorry, the device differs from the last one", 4220),
            (.unknownAppKey, .unauthorized, "Sorry, unknown app key", 4100),
            (.invalidDevice, .wrongParameter, "Sorry, invalid device", 4110),
        ]
        for (error, code, reason, close) in cases {
            var dialect = MsyncDialect()
            _ = dialect.decode(.binary(MsyncClient.provision()))
            let end = SessionEnd(
                cause: .loginRefused(RequestTag("provision"), error), reason: error.message,
                subject: JournalSubject(connection: ConnectionID(1)))
            let (messages, wireClose) = dialect.encode(end: end)
            let provision = try MsyncClient.payload(messages[0], as: MsyncPB.Provision.self)
            #expect(provision.status == MsyncPB.Status(errorCode: code, reason: reason), "\(error)")
            #expect(wireClose.code == close, "\(error)")
            #expect(wireClose.lingerMs == MsyncDialect.goodbyeLingerMs)
            #expect(MsyncStatusTable.code(of: provision.status!).code == Int(close) - 4000 || error == .invalidDevice)
        }
    }

    @Test("kicks 206 (with the new device's extension), 207, 216, 217 are STATISTIC metas in the user's queue")
    func statisticKicks() throws {
        for (code, operation) in [(206, 2), (207, 1), (216, 3), (217, 4)] {
            var dialect = Self.loggedIn()
            dialect.observe(serverTimeMs: 1_000)
            let end = SessionEnd(
                cause: .kicked(code: code, by: KickedBy(deviceName: "pad", extensionInfo: "ext")), reason: "kicked",
                subject: JournalSubject(connection: ConnectionID(1)))
            let (messages, close) = dialect.encode(end: end)
            #expect(close.code == UInt16(4000 + code))
            let page = try MsyncClient.payload(messages[0], as: MsyncPB.CommSyncDL.self)
            #expect(page.queue?.name == "alice")
            #expect(page.isLast == true)
            let meta = try #require(page.metas.first)
            #expect(meta.ns == .statistic)
            #expect(meta.from?.name == "alice" && meta.to?.name == "alice")
            #expect((meta.id ?? 0) > 1_000_000, "above the engine's message ids")
            let body = try meta.decodePayload(as: MsyncPB.StatisticsBody.self)
            #expect(body.operation?.rawValue == Int32(operation))
            #expect(body.reason == (code == 206 ? "ext" : nil))
        }
    }

    @Test("other kick codes are the PROVISION failure a new login would get; 108 is a server time past the expiry")
    func otherKicks() throws {
        let cases: [(Int, MsyncPB.Status.ErrorCode)] = [
            (305, .imForbidden), (214, .tooManyDevices), (220, .bindAnotherDevice), (8, .permissionDenied),
            (202, .fail), (999, .noRoute),
        ]
        for (code, errorCode) in cases {
            var dialect = Self.loggedIn()
            let end = SessionEnd(
                cause: .kicked(code: code, by: nil), reason: "kicked by the control API",
                subject: JournalSubject(connection: ConnectionID(1)))
            let (messages, _) = dialect.encode(end: end)
            let status = try #require(try MsyncClient.payload(messages[0], as: MsyncPB.Provision.self).status)
            #expect(status.errorCode == errorCode, "\(code)")
            #expect(MsyncStatusTable.code(of: status).code == code)
        }
        var dialect = Self.loggedIn()
        dialect.observe(serverTimeMs: 5)
        let end = SessionEnd(cause: .kicked(code: 108, by: nil), reason: "expired", subject: JournalSubject(connection: ConnectionID(1)))
        let unread = try MsyncClient.payload(dialect.encode(end: end).messages[0], as: MsyncPB.CommUnreadDL.self)
        #expect(unread.timestamp == UInt64(Self.expiry))
    }

    @Test("the token warning is the server time; the expiry a time at or past the expiry; a renewal moves it")
    func tokenEvents() throws {
        var dialect = Self.loggedIn()
        dialect.observe(serverTimeMs: Self.expiry - 10)
        let warning = try MsyncClient.payload(dialect.encode(push: .tokenWillExpire(expiresAt: Self.expiry))[0], as: MsyncPB.CommUnreadDL.self)
        #expect(warning.timestamp == UInt64(Self.expiry - 10))
        #expect(warning.unread.isEmpty)
        #expect(dialect.encode(reply: .tokenRenewed(tokenExpiresAt: Self.expiry + 100), tag: SessionEngine.restRenewalTag) == [])
        let end = SessionEnd(cause: .tokenExpired, reason: "the token has expired", subject: JournalSubject(connection: ConnectionID(1)))
        let (messages, close) = dialect.encode(end: end)
        #expect(try MsyncClient.payload(messages[0], as: MsyncPB.CommUnreadDL.self).timestamp == UInt64(Self.expiry + 100))
        #expect(close.code == 4108)
    }

    @Test("LOGOUT is a logout; its answer a Logout with a status; the close is 1000")
    func logout() throws {
        var dialect = Self.loggedIn()
        var logout = MsyncPB.Logout()
        logout.reason = "inner:logout"
        #expect(dialect.decode(.binary(MsyncClient.envelope(.logout, logout))) == [.command(.logout(RequestTag("logout"), unbindDeviceToken: false))])
        let reply = dialect.encode(reply: .loggedOut, tag: RequestTag("logout"))
        #expect(try MsyncClient.read(reply[0]).command == .logout)
        #expect(try MsyncClient.payload(reply[0], as: MsyncPB.Logout.self).status == MsyncPB.Status())
        let end = SessionEnd(cause: .loggedOut, reason: "logout", subject: JournalSubject(connection: ConnectionID(1)))
        #expect(dialect.encode(end: end).close == WireClose(code: 1000, reason: "logout"))
    }

    @Test("the msync-dialect fuzz seeds are envelopes the dialect reads")
    func fuzzSeeds() throws {
        // The first byte picks the framing (0: binary); the rest is the client's messages.
        let seeds = try CorpusFiles.seeds("msync-dialect")
        #expect(seeds.count == 9)
        for (name, bytes) in seeds where !name.hasPrefix("session") {
            #expect(bytes.first == 0, "\(name)")
            var dialect = MsyncDialect()
            let inputs = dialect.decode(.binary(Array(bytes.dropFirst())))
            #expect(!inputs.contains { if case .close = $0 { true } else { false } }, "\(name): \(inputs)")
        }
    }

    @Test("the status table reads back every code it writes")
    func statusTable() {
        for row in MsyncStatusTable.rows {
            #expect(MsyncStatusTable.code(of: MsyncStatusTable.status(code: row.code)).code == row.code)
        }
        #expect(MsyncStatusTable.code(of: MsyncStatusTable.status(code: 4242, sentence: "x")) == (4242, "Sorry, error 4242: x"))
    }
}
