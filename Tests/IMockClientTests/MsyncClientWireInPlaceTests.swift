import IMockCommon
import IMockCore
import IMockWire
import Testing

@testable import IMockClient

/// The msync client wire reads a binary SYNC or NOTICE with its payload in place; a base64
/// text message of the same envelope still goes the general way (``MsyncEnvelope/read(_:)``).
/// Two wires driven alike, one fed binary and one text, must say and send the same.
@Suite("msync client wire: frames read in place agree with the general decoders")
struct MsyncClientWireInPlaceTests {
    static let login = LoginRequest(
        appKey: "org#app", user: "alice", token: "t", device: DeviceDescription(platform: .easemob(.web), uuid: "u"))

    /// What a server sends a logged-in device over a message's path: NOTICE, page, empty page, send answer.
    static var serverFrames: [[UInt8]] {
        var dialect = MsyncDialect()
        _ = dialect.decode(.binary(MsyncEnvelope.bytes(command: .provision, payload: MsyncPB.Provision())))
        _ = dialect.encode(reply: .loginAccepted(resource: "r", tokenExpiresAt: nil, serverTime: 1), tag: nil)
        var frames: [[UInt8]] = []
        func bytes(_ messages: [WireMessage]) {
            for case .binary(let frame) in messages { frames.append(frame) }
        }
        bytes(dialect.encode(push: .message(ChatMessage(messageId: "7", from: "bob", to: "alice", text: "hi é", timestamp: 5))))
        for input in dialect.decode(.binary(MsyncEnvelope.bytes(command: .sync, payload: MsyncPB.CommSyncUL.pull(MsyncPB.JID(appKey: "org#app", name: "bob", domain: "easemob.com"))))) {
            if case .replyCarrying(let message, _) = input { bytes([message]) }
        }
        for input in dialect.decode(.binary(MsyncEnvelope.bytes(command: .sync, payload: MsyncPB.CommSyncUL.pull(MsyncPB.JID(appKey: "org#app", name: "bob", domain: "easemob.com"), key: 7)))) {
            if case .replyCarrying(let message, _) = input { bytes([message]) }
        }
        _ = dialect.decode(.binary(MsyncEnvelope.bytes(command: .sync, payload: MsyncPB.CommSyncUL.send(.text(id: 1, from: MsyncPB.JID(name: "alice"), to: MsyncPB.JID(name: "bob"), text: "x")))))
        bytes(dialect.encode(reply: .sent(messageId: "9", timestamp: 3), tag: RequestTag("send:1")))
        return frames
    }

    @Test("every frame of a message's path, cut short or changed at any byte, reads alike binary and as text")
    func agreesWithTheGeneralPath() {
        var corpus: [[UInt8]] = []
        for frame in Self.serverFrames {
            corpus.append(frame)
            for length in 0..<frame.count { corpus.append(Array(frame.prefix(length))) }
            for index in frame.indices {
                for value: UInt8 in [0x00, 0x80, 0xFF, frame[index] &+ 1] {
                    var changed = frame
                    changed[index] = value
                    corpus.append(changed)
                }
            }
        }
        #expect(corpus.count > 1_000)
        // Pages of chat texts take the page scanner's way on the binary side: not a vacuous test.
        #expect(corpus.filter { MsyncPageScanner.scan($0).map { !$0.messages.isEmpty } == true }.count > 100)
        for bytes in corpus {
            let (binary, text) = (MsyncClientWire(), MsyncClientWire())
            for wire in [binary, text] {
                _ = wire.encode(.login(RequestTag("l"), Self.login))
                _ = wire.encode(.send(RequestTag("s"), to: "bob", text: "x"))
                // A NOTICE of bob's queue first, so that its pages are pages being pulled.
                _ = wire.decode(.binary(MsyncEnvelope.bytes(command: .notice, payload: MsyncPB.CommNotice(queue: MsyncPB.JID(name: "bob")))))
            }
            let fromBinary = binary.decode(.binary(bytes))
            let fromText = text.decode(.text(Base64.encode(bytes)))
            #expect(fromBinary == fromText, "\(bytes)")
        }
    }

    @Test("a page of chat texts is read in place: the message, the key that confirms it, the queue")
    func pageScanner() throws {
        let pages = Self.serverFrames.compactMap(MsyncPageScanner.scan)
        let page = try #require(pages.first { !$0.messages.isEmpty })
        let message = try #require(page.messages.first)
        #expect(page.messages.count == 1)
        #expect(message.id == 7 && message.from == "bob" && message.to == "alice" && message.text == "hi é" && message.timestamp == 5)
        #expect(page.nextKey == 7 && page.queue == "bob" && page.isLast == false)
        #expect(pages.contains { $0.messages.isEmpty && $0.isLast == true }, "the empty last page")
    }
}
