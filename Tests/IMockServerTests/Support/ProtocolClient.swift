import FoundationEssentials
import IMockNet
import IMockTestSupport

/// A device speaking the imock protocol over IMockNet's WebSocket client.
final class ProtocolClient: Sendable {
    let socket: TestWebSocket

    private init(socket: TestWebSocket) { self.socket = socket }

    static func connect(loop: EventLoop, port: UInt16) async throws -> ProtocolClient {
        ProtocolClient(socket: try await TestWebSocket.connect(loop: loop, port: port, path: "/ws"))
    }

    func send(_ json: String) { socket.send(text: json) }

    /// Sends a login for `user` with `token` from a device.
    func login(
        app: String, user: String, token: String, os: String = "ios", uuid: String, name: String = "device",
        extensionInfo: String = "", autoLogin: Bool = false, id: String = "login"
    ) {
        send(
            #"{"op":"login","id":"\#(id)","appKey":"\#(app)","user":"\#(user)","token":"\#(token)","#
                + #""device":{"os":"\#(os)","name":"\#(name)","uuid":"\#(uuid)","extension":"\#(extensionInfo)"},"#
                + #""autoLogin":\#(autoLogin)}"#)
    }

    /// The next server frame as JSON, or the close as `{"op":"<closed>","code":N}`.
    func next() async -> [String: JSONAny] {
        switch await socket.next() {
        case .text(let text):
            return (try? JSONDecoder().decode([String: JSONAny].self, from: Data(text.utf8))) ?? ["op": .string("<unparsable>")]
        case .closed(let code, let reason):
            return ["op": .string("<closed>"), "code": .number(Double(code)), "reason": .string(reason)]
        case .binary, .pong:
            return ["op": .string("<other>")]
        case .timedOut:
            return ["op": .string("<timeout>")]
        case nil:
            return ["op": .string("<ended>")]
        }
    }

    /// Skips frames until one with `op`; returns it, or the close/end marker, or
    /// `{"op":"<timeout>","waitingFor":op}` when nothing came within the wait's real-time limit.
    func next(op: String) async -> [String: JSONAny] {
        while true {
            var frame = await next()
            let name = frame["op"]?.string ?? ""
            if name == "<timeout>" { frame["waitingFor"] = .string(op) }
            if name == op || name.hasPrefix("<") { return frame }
        }
    }
}
