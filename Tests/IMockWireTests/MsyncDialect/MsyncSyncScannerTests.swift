import IMockCommon
import IMockCore
import Testing

@testable import IMockWire

/// The one-pass reader of a message's SYNC frames (``MsyncSyncScanner``) and the page written
/// in place (``MsyncDialect/pageMessage(_:of:)``) against the general decoders and message
/// values they stand in for: over the frames of the Web SDK and the bench, frames the scanner
/// must leave to the general path, and each of them cut short, flipped and extended byte by
/// byte, a dialect reading with the scanner answers and ends up exactly as one without it.
@Suite("msync: the one-pass SYNC reader agrees with the general decoders")
struct MsyncSyncScannerTests {
    static func dialect(scanning: Bool) -> MsyncDialect {
        var dialect = MsyncDialectTests.loggedIn(pageSize: 2)
        dialect.scansSyncFrames = scanning
        for id in 1...3 { _ = dialect.encode(push: .message(.sample(id))) }
        return dialect
    }

    static func frame(_ upload: MsyncPB.CommSyncUL, configure: (inout MsyncPB.MSync) -> Void = { _ in }) -> [UInt8] {
        var msync = MsyncPB.MSync(command: .sync, payload: upload)
        configure(&msync)
        return msync.protobufBytes()
    }

    static func textMeta(
        id: UInt64 = 42, to: String? = "bob", bodyTo: String? = "bob", text: String = "hi",
        change: (inout MsyncPB.MessageBody, inout MsyncPB.Meta) -> Void = { _, _ in }
    ) -> MsyncPB.Meta {
        var meta = MsyncPB.Meta.text(id: id, from: MsyncClient.jid("alice"), to: MsyncClient.jid("bob"), text: text)
        var body = try! meta.decodePayload(as: MsyncPB.MessageBody.self)
        meta.to = to.map { MsyncClient.jid($0) }
        body.to = bodyTo.map { MsyncClient.jid($0) }
        change(&body, &meta)
        meta.payload = body.protobufBytes()
        return meta
    }

    /// Frames of every kind the scanner meets: the ones it reads and the ones it must leave.
    static var baseFrames: [[UInt8]] {
        var frames: [[UInt8]] = [
            MsyncClient.send(id: 42, to: "bob", text: "hi"),
            MsyncClient.send(id: UInt64.max, to: "bob", text: String(repeating: "é🙂x", count: 60)),
            MsyncClient.pull("bob"),
            MsyncClient.pull("bob", key: 2),
            MsyncClient.pull("carol", key: 7),
            frame(.pull(MsyncClient.jid("bob", resource: "webim_wx_1"), key: 2)) { $0.version = .msyncV1 },
            frame(.send(textMeta())) { $0.version = .msyncV1 },
            frame(.send(textMeta(to: nil))),
            frame(.send(textMeta(to: nil, bodyTo: nil))),
            frame(.send(textMeta(text: ""))),
            frame(.send(textMeta { body, _ in body.type = .chat })),
            frame(.send(textMeta { body, _ in body.type = .groupChat })),
            frame(.send(textMeta { body, _ in body.type = .readAck })),
            frame(.send(textMeta { body, _ in body.contents.append(.init(text: "two")) })),
            frame(.send(textMeta { body, _ in body.contents[0].type = .image })),
            frame(.send(textMeta { body, _ in body.contents[0].type = .text })),
            frame(.send(textMeta { body, _ in body.contents[0].text = nil })),
            frame(.send(textMeta { body, _ in body.contents[0].address = "x" })),
            frame(.send(textMeta { body, _ in body.ext = [MsyncPB.KeyValue()] })),
            frame(.send(textMeta { body, _ in body.ackMessageId = 3 })),
            frame(.send(textMeta { _, meta in meta.ns = .muc })),
            frame(.send(textMeta { _, meta in meta.ns = nil })),
            frame(.send(textMeta { _, meta in meta.routetype = .online })),
            frame(.send(textMeta { _, meta in meta.ext = [MsyncPB.KeyValue()] })),
            frame(.send(textMeta { _, meta in meta.directedUsers = ["x"] })),
            frame(.send(textMeta { _, meta in meta.payload = nil })),
            frame(.send(textMeta { _, meta in meta.id = nil })),
            frame(.send(textMeta())) { $0.auth = "$t$x" },
            frame(.send(textMeta())) { $0.encryptType = [.none] },
            frame(.send(textMeta())) { $0.guid = MsyncClient.jid("alice") },
            frame(.send(textMeta())) { $0.command = .unread },
            frame(.send(textMeta())) { $0.command = .notice },
            frame(.send(textMeta())) { $0.command = .unrecognized(77) },
            frame(.send(textMeta())) { $0.payload = nil },
            frame(MsyncPB.CommSyncUL()),
        ]
        var both = MsyncPB.CommSyncUL.pull(MsyncClient.jid("bob"), key: 2)
        both.meta = textMeta()
        both.isRoam = true
        both.lastFullRoamKey = 9
        frames.append(frame(both))
        // Fields no decoder knows, at each level: skipped by both.
        frames.append(MsyncClient.pull("bob", key: 2) + [0x78, 0x01, 0x82, 0x01, 0x01, 0x00])
        frames.append(frame(.send(textMeta())) + [0xF8, 0x01, 0x05])
        return frames
    }

    /// Each frame, then each cut short, with each byte changed, and with a byte put in.
    static var corpus: [[UInt8]] {
        var corpus: [[UInt8]] = []
        for frame in baseFrames {
            corpus.append(frame)
            for length in 0..<frame.count { corpus.append(Array(frame.prefix(length))) }
            for index in frame.indices {
                for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF, frame[index] &+ 1, frame[index] ^ 0x08] {
                    var changed = frame
                    changed[index] = value
                    corpus.append(changed)
                }
                var longer = frame
                longer.insert(0x0A, at: index)
                corpus.append(longer)
            }
        }
        return corpus
    }

    @Test("the bench's and the Web SDK's send and pulls are read in one pass")
    func commonFramesTakeTheFastPath() {
        #expect(MsyncSyncScanner.scan(MsyncClient.send(id: 42, to: "bob", text: "hi")) == .send(metaId: 42, recipient: "bob", text: "hi"))
        #expect(MsyncSyncScanner.scan(MsyncClient.pull("bob")) == .pull(MsyncClient.jid("bob"), key: nil))
        #expect(MsyncSyncScanner.scan(MsyncClient.pull("bob", key: 7)) == .pull(MsyncClient.jid("bob"), key: 7))
        let bench = MsyncEnvelope.bytes(
            version: .msyncV1, command: .sync,
            payload: MsyncPB.CommSyncUL.send(.text(id: 1, from: MsyncClient.jid("a"), to: MsyncClient.jid("b"), text: "t")))
        #expect(MsyncSyncScanner.scan(bench) == .send(metaId: 1, recipient: "b", text: "t"))
        #expect(MsyncSyncScanner.scan(MsyncClient.provision()) == nil)
        #expect(MsyncSyncScanner.scan(MsyncClient.unread) == nil)
    }

    @Test("a dialect reading with the scanner answers and ends up as one without it, on every input")
    func agreesWithTheGeneralPath() {
        let corpus = Self.corpus
        let base = Set(Self.baseFrames)
        let (fastStart, generalStart) = (Self.dialect(scanning: true), Self.dialect(scanning: false))
        var answered = 0
        for bytes in corpus {
            if MsyncSyncScanner.scan(bytes) != nil { answered += 1 }
            let messages = base.contains(bytes) ? [WireMessage.binary(bytes), .text(Base64.encode(bytes))] : [.binary(bytes)]
            for message in messages {
                var fast = fastStart
                var general = generalStart
                let fastInputs = fast.decode(message)
                let generalInputs = general.decode(message)
                #expect(String(reflecting: fastInputs) == String(reflecting: generalInputs), "\(bytes)")
                #expect(fast.heldMessages == general.heldMessages)
                #expect(fast.pendingSends == general.pendingSends)
                #expect(fast.framing == general.framing)
                #expect(fast.inbox == general.inbox)
                // The dialects stay equal for what follows: a page confirmed, a send answered.
                let next = WireMessage.binary(MsyncClient.pull("bob", key: 2))
                #expect(fast.decode(next) == general.decode(next))
                #expect(
                    fast.encode(reply: .sent(messageId: "9", timestamp: 5), tag: RequestTag("send:42"))
                        == general.encode(reply: .sent(messageId: "9", timestamp: 5), tag: RequestTag("send:42")))
            }
        }
        #expect(corpus.count > 20_000, "corpus of \(corpus.count)")
        #expect(answered > 1_000, "scanner answered \(answered) of \(corpus.count)")
    }

    @Test("a page, a NOTICE and a send's answer written in place are those of message values, byte for byte")
    func pageBytes() {
        let long = String(repeating: "long text é🙂 ", count: 20)
        let pages: [[ChatMessage]] = [
            [],
            [.sample(1)],
            (1...20).map { ChatMessage.sample($0) },
            [ChatMessage(messageId: "not-a-number", from: "bob", to: "alice", text: long, timestamp: -5)],
            (1...3).map { ChatMessage(messageId: String($0 * 1_000_003), from: "b\($0)", to: "alice", text: long, timestamp: Int64($0)) },
        ]
        for framing in [MsyncFraming.binary, .base64Text] {
            var dialect = MsyncDialect(framing: framing)
            for messages in pages {
                for queue in [MsyncClient.jid("bob"), MsyncClient.jid("bob", resource: "r")] {
                    let page = MsyncInbox.Page(messages: messages, nextKey: messages.isEmpty ? nil : 77, confirmed: [])
                    var reply = dialect.syncStatus(MsyncPB.Status())
                    reply.metas = messages.map(dialect.meta)
                    reply.nextKey = page.nextKey
                    reply.queue = queue
                    reply.isLast = page.nextKey == nil
                    #expect(dialect.pageMessage(page, of: queue) == dialect.wire(.sync, reply))
                }
            }
            _ = dialect.decode(.binary(MsyncClient.provision()))
            dialect.observe(serverTimeMs: 1_700_000_000_123)
            let page = MsyncInbox.Page(messages: [.sample(3)], nextKey: 3, confirmed: [])
            var reply = dialect.syncStatus(MsyncPB.Status())
            reply.metas = [dialect.meta(.sample(3))]
            reply.nextKey = 3
            reply.queue = MsyncClient.jid("bob")
            reply.isLast = false
            #expect(dialect.pageMessage(page, of: MsyncClient.jid("bob")) == dialect.wire(.sync, reply))
            let notice = dialect.wire(.notice, MsyncPB.CommNotice(queue: dialect.jid("zoë")))
            #expect(dialect.encode(push: .message(.sample(9, from: "zoë"))) == [notice])
            for recipient in ["bob", "zoë", "", nil] as [String?] {
                for serverId in [7, nil, UInt64.max] as [UInt64?] {
                    var ack = dialect.sendAck(42, MsyncPB.Status(), to: recipient)
                    ack.serverId = serverId
                    ack.timestamp = 99
                    #expect(dialect.sentAnswer(42, serverId: serverId, timestamp: 99, to: recipient) == dialect.wire(.sync, ack))
                }
            }
        }
    }
}
