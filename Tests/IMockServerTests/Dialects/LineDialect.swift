import IMockCore
import IMockWire

/// A test-only dialect, line-based text, written against the `WireDialect` protocol alone: the
/// proof that adding a dialect touches the wire layer and one registration line, never the
/// engine.
///
/// Device → server: `LOGIN <app> <user> <token> <uuid>`, `PING`. Server → device: `WELCOME
/// <resource>`, `PONG <time>`, `NO <reason>`, `EXPIRING <at>`, `MSG <from> <text>`, `BYE kicked
/// <code>`, `BYE expired`; a kick closes with 3000 + (code % 1000). It can also log in during the
/// upgrade: `?login=<app>,<user>,<token>,<uuid>`.
struct LineDialect: WireDialect {
    static let path = "/line"
    let name = "line"

    func decode(_ message: WireMessage) -> [DialectInput] {
        guard case .text(let text) = message else { return [.close(WireClose(code: 1003, reason: "text only"))] }
        let words = text.split(separator: " ").map(String.init)
        switch words.first {
        case "LOGIN" where words.count == 5:
            return [.command(Self.login(words[1], words[2], words[3], words[4]))]
        case "PING":
            return [.command(.ping(nil))]
        default:
            return [.reply(.text("NO what is \(words.first ?? "")"))]
        }
    }

    func encode(reply: SessionReply, tag: RequestTag?) -> [WireMessage] {
        switch reply {
        case .loginAccepted(let resource, _, _): [.text("WELCOME \(resource)")]
        case .pong(let serverTime): [.text("PONG \(serverTime)")]
        case .refused(let error, _): [.text("NO \(error.message)")]
        default: []
        }
    }

    func encode(push: SessionPush) -> [WireMessage] {
        switch push {
        case .tokenWillExpire(let expiresAt): [.text("EXPIRING \(expiresAt)")]
        case .message(let message): [.text("MSG \(message.from) \(message.text)")]
        default: []
        }
    }

    func encode(end: SessionEnd) -> (messages: [WireMessage], close: WireClose) {
        switch end.cause {
        case .kicked(let code, _): ([.text("BYE kicked \(code)")], WireClose(code: UInt16(3000 + code % 1000), reason: end.reason))
        case .tokenExpired: ([.text("BYE expired")], WireClose(code: 3108, reason: end.reason))
        case .loginRefused(_, let error): ([.text("NO \(error.message)")], WireClose(code: 3001, reason: end.reason))
        case .loggedOut, .replaced, .outputOverflow: ([], WireClose(code: 1000, reason: end.reason))
        }
    }

    func login(forUpgrade request: UpgradeRequest) -> UpgradeLogin {
        guard let login = request.queryValue("login") else { return .none }
        let parts = login.split(separator: ",").map(String.init)
        guard parts.count == 4 else {
            return .refuse(UpgradeRefusal(status: 400, contentType: "text/plain", body: Array("login=app,user,token,uuid".utf8)))
        }
        return .login(Self.login(parts[0], parts[1], parts[2], parts[3]))
    }

    func refusal(forUpgrade end: SessionEnd) -> UpgradeRefusal {
        UpgradeRefusal(status: 403, contentType: "text/plain", body: Array("refused: \(end.reason)".utf8))
    }

    private static func login(_ app: String, _ user: String, _ token: String, _ uuid: String) -> SessionCommand {
        .login(
            RequestTag("line"),
            LoginRequest(appKey: app, user: user, token: token, device: DeviceDescription(platform: .easemob(.linux), uuid: uuid)))
    }
}
