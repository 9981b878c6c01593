import IMockCommon
import IMockCore
import IMockWire
import Testing

/// msync inside SockJS: `o`, `["…"]` in, `a["…"]` out, `c[code,"reason"]` before a close.
@Suite("The SockJS msync dialect")
struct SockJSMsyncDialectTests {
    @Test("greets with o; a client frame may carry several envelopes; replies are a[…] of base64")
    func framing() throws {
        var dialect = SockJSMsyncDialect()
        #expect(dialect.greeting == [.text("o")])
        let frame = SockJSClientFrame.text([Base64.encode(MsyncClient.provision()), Base64.encode(MsyncClient.unread)])
        let inputs = dialect.decode(.text(frame))
        #expect(inputs.count == 2)
        guard case .command(.login)? = inputs.first, case .command(.ping)? = inputs.last else { Issue.record("\(inputs)"); return }
        let reply = dialect.encode(reply: .loginAccepted(resource: "r", tokenExpiresAt: nil, serverTime: 1), tag: nil)
        guard case .text(let text)? = reply.first, case .messages(let envelopes) = try SockJSFrame(parsing: text) else {
            Issue.record("\(reply)")
            return
        }
        #expect(try MsyncClient.read(.text(envelopes[0])).command == .provision)
    }

    @Test("a goodbye is an a[…] frame now and c[code,reason] with the lingering close; broken framing is c[3000,\"Broken framing.\"] and close 3000; binary is refused")
    func closes() throws {
        var dialect = SockJSMsyncDialect()
        _ = dialect.decode(.text(SockJSClientFrame.text([Base64.encode(MsyncClient.provision())])))
        _ = dialect.encode(reply: .loginAccepted(resource: "r", tokenExpiresAt: nil, serverTime: 1), tag: nil)
        let end = SessionEnd(cause: .kicked(code: 217, by: nil), reason: "forced", subject: JournalSubject(connection: ConnectionID(1)))
        let (messages, close) = dialect.encode(end: end)
        #expect(messages.count == 1, "the kick alone: its c[…] frame must not overtake it")
        #expect(close.announcement == .text(#"c[4217,"forced"]"#))
        #expect(close.code == 4217)
        #expect(close.lingerMs == MsyncDialect.goodbyeLingerMs)
        #expect(dialect.decode(.text("not json")) == [.reply(.text(#"c[3000,"Broken framing."]"#)), .close(WireClose(code: 3000, reason: "Broken framing."))])
        let binary = dialect.decode(.binary([1]))
        #expect(binary.count == 2)
        guard case .close(let refused)? = binary.last else { Issue.record("\(binary)"); return }
        #expect(refused.code == 1003)
        #expect(dialect.decode(.text("")) == [], "an empty frame carries nothing")
    }
}
