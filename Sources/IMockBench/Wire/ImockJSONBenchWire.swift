import IMockNet
import IMockWire

/// The imock JSON protocol (docs/PROTOCOL.md) from the device's side, written with string
/// templates and read with ``FrameScanner`` (server frames put `op` first): a full JSON parse
/// per frame would make the load generator, not the server, the bottleneck.
struct ImockJSONBenchWire: BenchWire {
    static let name = "imock-json"
    static let baselineSpeaks = true

    private var nextID = 0

    init() {}

    func upgrade(for login: BenchLogin) -> (path: String, headers: HTTPHeaders) { ("/ws", HTTPHeaders()) }

    mutating func login(_ login: BenchLogin) -> BenchWireOutput {
        let id = requestID()
        return BenchWireOutput(
            .text(
                #"{"op":"login","id":"\#(id)","appKey":"\#(login.appKey)","user":"\#(login.user)","token":"\#(login.token)","#
                    + #""device":{"os":"\#(login.os)","name":"bench","uuid":"\#(login.deviceUUID)"}}"#))
    }

    mutating func ping() -> BenchWireOutput { BenchWireOutput(.text(#"{"op":"ping","id":"\#(requestID())"}"#)) }

    mutating func send(to user: String, text: String) -> BenchWireOutput {
        BenchWireOutput(.text(#"{"op":"send","id":"\#(requestID())","to":"\#(user)","text":"\#(text)"}"#))
    }

    mutating func ack(_ id: String) -> BenchWireOutput {
        BenchWireOutput(.text(#"{"op":"ack","id":"\#(requestID())","messageId":"\#(id)"}"#))
    }

    mutating func receive(_ message: WireMessage) -> BenchWireOutput {
        BenchWireOutput(events: events(in: message))
    }

    private func events(in message: WireMessage) -> [BenchEvent] {
        guard case .text(let text) = message else { return [.malformed("a binary message")] }
        let frame = FrameScanner(text)
        switch frame.op {
        case "login.ok": return [.loginAccepted]
        case "login.error": return [.loginRefused(code: frame.integer("code") ?? -1)]
        case "pong": return [.pong]
        case "kicked": return [.kicked(code: frame.integer("code") ?? -1)]
        case "message": return [.message(id: frame.string("messageId") ?? "", text: frame.string("text") ?? "")]
        case "offline.start": return [.offlineStart(count: frame.integer("count") ?? 0)]
        case "offline.finish": return [.offlineFinish]
        case "send.ok": return [.sent]
        case "ack.ok": return [.acked]
        case "error": return [.refused(code: frame.integer("code") ?? -1)]
        case "": return [.malformed("no leading op: \(text.prefix(80))")]
        default: return [.other]
        }
    }

    private mutating func requestID() -> String {
        nextID += 1
        return String(nextID)
    }
}
