import IMockNet
import IMockWire

/// The imock JSON protocol (docs/PROTOCOL.md) from the device's side, written with string
/// templates and read with ``FrameScanner`` (server frames put `op` first): a full JSON parse
/// per frame would make the load generator, not the server, the bottleneck.
struct ImockJSONBenchWire: BenchWire {
    static let name = "imock-json"

    private var nextID = 0

    init() {}

    func upgrade(for login: BenchLogin) -> (path: String, headers: HTTPHeaders) { ("/ws", HTTPHeaders()) }

    mutating func login(_ login: BenchLogin) -> [WireMessage] {
        let id = requestID()
        return [
            .text(
                #"{"op":"login","id":"\#(id)","appKey":"\#(login.appKey)","user":"\#(login.user)","token":"\#(login.token)","#
                    + #""device":{"os":"\#(login.os)","name":"bench","uuid":"\#(login.deviceUUID)"}}"#)
        ]
    }

    mutating func ping() -> WireMessage { .text(#"{"op":"ping","id":"\#(requestID())"}"#) }

    mutating func send(to user: String, text: String) -> WireMessage {
        .text(#"{"op":"send","id":"\#(requestID())","to":"\#(user)","text":"\#(text)"}"#)
    }

    mutating func ack(_ id: String) -> WireMessage { .text(#"{"op":"ack","id":"\#(requestID())","messageId":"\#(id)"}"#) }

    mutating func events(in message: WireMessage) -> [BenchEvent] {
        guard case .text(let text) = message else { return [.other] }
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
        default: return [.other]
        }
    }

    private mutating func requestID() -> String {
        nextID += 1
        return String(nextID)
    }
}
