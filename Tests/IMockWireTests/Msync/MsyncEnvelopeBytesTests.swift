import IMockWire
import Testing

@Suite("Msync envelopes written in place")
struct MsyncEnvelopeBytesTests {
    /// A page of `count` text metas: its encoding passes 127 and 16,383 bytes as `count` grows,
    /// so the in-place length takes one, two and three bytes.
    static func page(_ count: Int) -> MsyncPB.CommSyncDL {
        var page = MsyncPB.CommSyncDL()
        page.status = MsyncPB.Status()
        let me = MsyncPB.JID(appKey: "org#app", name: "amy", domain: "easemob.com")
        let peer = MsyncPB.JID(appKey: "org#app", name: "bob", domain: "easemob.com")
        page.metas = (0..<count).map { .text(id: UInt64($0 + 1), from: peer, to: me, text: "hello \($0)", timestamp: 1_700_000_000_000) }
        page.queue = peer
        page.isLast = count == 0
        return page
    }

    @Test(arguments: [0, 1, 2, 20, 200])
    func sameBytesAsTheEnvelopeWithItsPayloadArray(metas: Int) throws {
        let page = Self.page(metas)
        let expected = MsyncPB.MSync(command: .sync, payload: page).protobufBytes()
        #expect(MsyncEnvelope.bytes(command: .sync, payload: page) == expected)
        var versioned = MsyncPB.MSync(command: .sync, payload: page)
        versioned.version = .msyncV1
        #expect(MsyncEnvelope.bytes(version: .msyncV1, command: .sync, payload: page) == versioned.protobufBytes())
        let decoded = try MsyncPB.MSync(protobufBytes: MsyncEnvelope.bytes(command: .sync, payload: page))
        #expect(try decoded.decodePayload(as: MsyncPB.CommSyncDL.self) == page)
    }

    @Test func emptyPayloadIsStillWritten() {
        let bytes = MsyncEnvelope.bytes(command: .unread, payload: MsyncPB.CommUnreadUL())
        #expect(bytes == MsyncPB.MSync(command: .unread, payload: MsyncPB.CommUnreadUL()).protobufBytes())
    }
}
