// Fuzz target `msync-dialect`: the server's msync frame handling (`MsyncDialect` and
// `SockJSMsyncDialect`, IMockWire) as a connection lives it: the first byte picks the framing
// (binary, base64 text, SockJS frames), the rest is cut into messages fed to `decode`, interleaved with the
// engine outputs the shell would encode (login accepted, messages pushed offline or live, pongs,
// send answers, kicks with any code, token events), chosen from the input itself. Pulls with
// the keys of earlier pages are mixed in, so confirmations are reached.
//
// Properties (a violation traps):
// - Every message the dialect writes (a reply of `decode`, an encoding of an engine output)
//   is an `MSync` envelope of a known command, in the framing of the connection (binary, or
//   base64 text; SockJS: `a[…]` or `c[…]` frames that read back).
// - Every close has a code of 1000–4999 and a reason of at most 123 bytes.
// - `ack` commands only name messages pushed to this connection (offline or live), each at most once.
// - A page (an answer with a queue and an OK status) holds messages pushed to this connection,
//   its `nextKey` is the last meta's id, and a page without metas says `isLast`.
// - What the inbox holds was pushed here and not acked.
// - Never a trap, never an out-of-bounds access (ASan).

import IMockCommon
import IMockCore
import IMockWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMsyncDialect(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    // The framing comes from the input, so each input runs once.
    let framing = [Framing.binary, .text, .sockJS][Int(input.first ?? 0) % 3]
    var run = DialectRun(framing: framing, choices: InputDerivedChoices(input, salt: framing.salt))
    run.replay(Array(input.dropFirst()))
    return 0
}

enum Framing {
    case binary, text, sockJS
    var salt: UInt64 {
        switch self {
        case .binary: 1
        case .text: 2
        case .sockJS: 3
        }
    }
}

struct DialectRun {
    let framing: Framing
    var choices: InputDerivedChoices
    var plain: MsyncDialect
    var sockJS = SockJSMsyncDialect(pageSize: 3)
    var pushed: [String: ChatMessage] = [:]
    var offline: Set<String> = []
    var acked: Set<String> = []
    var keys: [UInt64] = []
    var peers: [String] = ["bob"]
    var nextID = 1

    init(framing: Framing, choices: InputDerivedChoices) {
        self.framing = framing
        self.choices = choices
        self.plain = MsyncDialect(pageSize: 3, framing: framing == .binary ? nil : .base64Text)
    }

    mutating func replay(_ input: [UInt8]) {
        for chunk in choices.split(input, maximum: 12) {
            feed(Array(chunk))
            for _ in 0..<choices.below(3) { engineOutput() }
            if choices.below(2) == 0 { feed(structuredPull()) }
        }
        let held = framing == .sockJS ? sockJS.heldMessages : plain.heldMessages
        for message in held {
            check(pushed[message.messageId] == message && !acked.contains(message.messageId),
                  "held \(message) was not pushed here, or was acked")
        }
    }

    // MARK: Client side

    mutating func feed(_ bytes: [UInt8]) {
        let inputs: [DialectInput]
        switch framing {
        case .binary: inputs = plain.decode(.binary(bytes))
        case .text: inputs = plain.decode(.text(choices.below(4) == 0 ? String(decoding: bytes, as: UTF8.self) : Base64.encode(bytes)))
        case .sockJS:
            let text = choices.below(4) == 0 ? String(decoding: bytes, as: UTF8.self) : SockJSClientFrame.text([Base64.encode(bytes)])
            inputs = sockJS.decode(.text(text))
        }
        for input in inputs {
            switch input {
            case .command(.ack(_, let id)):
                check(pushed[id] != nil, "ack of \(id), not a message pushed here")
                check(acked.insert(id).inserted, "ack of \(id) twice")
            case .command: break
            case .reply(let message), .replyCarrying(let message, _): readServerMessage(message)
            case .close(let close): checkClose(close)
            }
        }
    }

    mutating func structuredPull() -> [UInt8] {
        let queue = MsyncPB.JID(appKey: "org#app", name: choices.pick(peers), domain: "easemob.com")
        let key = !keys.isEmpty && choices.below(3) != 0 ? choices.pick(keys) : nil
        return MsyncPB.MSync(command: .sync, payload: MsyncPB.CommSyncUL.pull(queue, key: key)).protobufBytes()
    }

    // MARK: Engine side

    mutating func engineOutput() {
        var messages: [WireMessage] = []
        let now = Int64(choices.below(1 << 20)) + 1_700_000_000_000
        observe(now)
        switch choices.below(9) {
        case 0:
            messages = encode(reply: .loginAccepted(resource: "r", tokenExpiresAt: choices.below(2) == 0 ? nil : now + 1000, serverTime: now), tag: RequestTag("provision"))
        case 1, 2:
            let live = choices.below(2) == 0
            let peer = choices.pick(["bob", "carol", "bob"])
            if !peers.contains(peer) { peers.append(peer) }
            let message = ChatMessage(messageId: String(nextID), from: peer, to: "alice", text: "m\(nextID)", timestamp: now)
            nextID += 1
            pushed[message.messageId] = message
            if !live {
                offline.insert(message.messageId)
                messages += encode(push: .offlineStart(count: 1))
            }
            messages += encode(push: .message(message))
            if !live { messages += encode(push: .offlineFinish) }
        case 3: messages = encode(reply: .pong(serverTime: now), tag: RequestTag("unread"))
        case 4: messages = encode(reply: .sent(messageId: String(choices.below(100)), timestamp: now), tag: RequestTag("send:\(choices.below(5))"))
        case 5: messages = encode(reply: .refused(choices.pick([.recipientNotFound, .notLoggedIn, .alreadyLoggedIn, .offlineQueueFull]), field: nil), tag: RequestTag(choices.pick(["provision", "logout", "send:1", "ack:1"])))
        case 6: messages = encode(push: .tokenWillExpire(expiresAt: now + 10))
        case 7:
            let code = choices.pick([206, 207, 216, 217, 108, 305, 214, 8, 0, Int(Int32.max), choices.below(5000)])
            let cause: SessionEnd.Cause = choices.pick([
                .kicked(code: code, by: KickedBy(deviceName: "d", extensionInfo: String(repeating: "x", count: choices.below(1500)))),
                .tokenExpired, .loggedOut, .replaced, .outputOverflow, .loginRefused(RequestTag("provision"), .invalidToken),
                .loginRefused(RequestTag("provision"), .deviceRefused(.deviceChanged)),
            ])
            let end = SessionEnd(cause: cause, reason: String(repeating: "r", count: choices.below(200)), subject: JournalSubject(connection: ConnectionID(1)))
            let (goodbye, close) = encodeEnd(end)
            messages = goodbye
            check(close.code >= 1000 && close.code <= 4999, "close code \(close.code)")
        default: messages = encode(reply: .loggedOut, tag: RequestTag("logout"))
        }
        for message in messages { readServerMessage(message) }
    }

    mutating func observe(_ now: Int64) {
        if framing == .sockJS { sockJS.observe(serverTimeMs: now) } else { plain.observe(serverTimeMs: now) }
    }

    mutating func encode(reply: SessionReply, tag: RequestTag) -> [WireMessage] {
        framing == .sockJS ? sockJS.encode(reply: reply, tag: tag) : plain.encode(reply: reply, tag: tag)
    }

    mutating func encode(push: SessionPush) -> [WireMessage] {
        framing == .sockJS ? sockJS.encode(push: push) : plain.encode(push: push)
    }

    mutating func encodeEnd(_ end: SessionEnd) -> (messages: [WireMessage], close: WireClose) {
        framing == .sockJS ? sockJS.encode(end: end) : plain.encode(end: end)
    }

    // MARK: Checking what the server writes

    func checkClose(_ close: WireClose) {
        check(close.code >= 1000 && close.code <= 4999, "close code \(close.code)")
        check(close.reason.utf8.count <= 123, "close reason of \(close.reason.utf8.count) bytes")
    }

    mutating func readServerMessage(_ message: WireMessage) {
        switch (framing, message) {
        case (.binary, .binary(let bytes)):
            readEnvelope(bytes)
        case (.text, .text(let text)):
            guard let bytes = Base64.decode(text) else { return check(false, "text reply that is not base64: \(text)") }
            readEnvelope(bytes)
        case (.sockJS, .text(let text)):
            let frame: SockJSFrame
            do { frame = try SockJSFrame(parsing: text) } catch { return check(false, "SockJS frame \(text): \(error)") }
            switch frame {
            case .messages(let envelopes):
                for envelope in envelopes {
                    guard let bytes = Base64.decode(envelope) else { return check(false, "not base64 in \(text)") }
                    readEnvelope(bytes)
                }
            case .close(let code, let reason):
                check((1000...4999).contains(code) && reason.utf8.count <= 123, "close frame \(text)")
            case .open, .heartbeat:
                check(false, "\(text) after the greeting")
            }
        default:
            check(false, "\(message) in the \(framing) framing")
        }
    }

    mutating func readEnvelope(_ bytes: [UInt8]) {
        guard let envelope = try? MsyncPB.MSync(protobufBytes: bytes) else { return check(false, "an envelope that does not decode") }
        switch envelope.command {
        case .sync?:
            guard let page = try? envelope.decodePayload(as: MsyncPB.CommSyncDL.self) else { return check(false, "a bad CommSyncDL") }
            // Send answers carry metaId; error answers (bad payload, neither meta nor queue) no queue.
            guard page.metaId == nil, page.queue != nil, (page.status?.errorCode ?? .ok) == .ok else { return }
            let chats = page.metas.filter { $0.ns == .chat }
            for meta in chats {
                let id = String(meta.id ?? 0)
                check(pushed[id] != nil, "a page with message \(id), never pushed here")
            }
            if chats.isEmpty {
                check(page.nextKey == nil && page.isLast == true || !page.metas.isEmpty, "an empty page that is not the last")
            } else {
                check(page.nextKey == chats.last?.id && page.isLast == false, "a page's nextKey is not its last meta")
                if let key = page.nextKey { keys.append(key) }
            }
        case .unread?:
            check((try? envelope.decodePayload(as: MsyncPB.CommUnreadDL.self)) != nil, "a bad CommUnreadDL")
        case .notice?:
            check((try? envelope.decodePayload(as: MsyncPB.CommNotice.self))?.queue?.name != nil, "a NOTICE without a queue")
        case .provision?:
            check((try? envelope.decodePayload(as: MsyncPB.Provision.self))?.status != nil, "a PROVISION answer without a status")
        case .logout?:
            check((try? envelope.decodePayload(as: MsyncPB.Logout.self)) != nil, "a bad Logout")
        case nil, .unrecognized?:
            check(false, "an envelope of command \(String(describing: envelope.command))")
        }
    }
}
