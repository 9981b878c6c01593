import IMockCore
import IMockWire
import Testing

@Suite("Kick goodbyes encoded once and shared")
struct KickGoodbyeSharingTests {
    static func kick(_ code: Int, reason: String, by: KickedBy? = nil, connection: UInt64) -> SessionEnd {
        SessionEnd(cause: .kicked(code: code, by: by), reason: reason, subject: JournalSubject(connection: ConnectionID(connection)))
    }

    @Test func everySessionToldTheSameGetsTheSameFrame() {
        var first = ImockJSONDialect()
        var second = ImockJSONDialect()
        let a = first.encode(end: Self.kick(305, reason: "the app service is disabled", connection: 1))
        let b = second.encode(end: Self.kick(305, reason: "the app service is disabled", connection: 2))
        #expect(a.messages == b.messages)
        #expect(a.messages == [.text(ServerFrame.kicked(code: 305, reason: "the app service is disabled", by: nil).text)])
        #expect(a.close == WireClose(code: 4305, reason: "the app service is disabled"))
    }

    @Test func anotherCodeReasonOrKickerIsItsOwnFrame() {
        var dialect = ImockJSONDialect()
        let base = dialect.encode(end: Self.kick(217, reason: "kicked by the server", connection: 1)).messages
        let otherReason = dialect.encode(end: Self.kick(217, reason: "kicked by REST", connection: 1)).messages
        let otherCode = dialect.encode(end: Self.kick(207, reason: "kicked by the server", connection: 1)).messages
        let by = KickedBy(deviceName: "phone", extensionInfo: "ext")
        let withKicker = dialect.encode(end: Self.kick(206, reason: "kicked by the server", by: by, connection: 1)).messages
        #expect(otherReason == [.text(ServerFrame.kicked(code: 217, reason: "kicked by REST", by: nil).text)])
        #expect(otherCode == [.text(ServerFrame.kicked(code: 207, reason: "kicked by the server", by: nil).text)])
        #expect(withKicker == [.text(ServerFrame.kicked(code: 206, reason: "kicked by the server", by: by).text)])
        #expect(base != otherReason && base != otherCode)
    }

    @Test func openIMKickPushIsSharedPerCodec() throws {
        var gob = OpenIMGatewayDialect()
        var again = OpenIMGatewayDialect()
        let one = gob.encode(end: Self.kick(305, reason: "disabled", connection: 1)).messages
        let two = again.encode(end: Self.kick(217, reason: "kicked", connection: 2)).messages
        #expect(one == two)
        guard case .binary(let bytes) = try #require(one.first) else { Issue.record("not binary"); return }
        let push = try OpenIMFrameCodec(encoding: .gob, gzip: false).decodeResponse(bytes)
        #expect(push.reqIdentifier == OpenIMGatewayDialect.Request.kick)
    }
}
