import IMockCore

/// The imock JSON protocol (docs/PROTOCOL.md) as a dialect: one JSON object per text frame,
/// request ids echoed, Easemob error codes, kicks as a `kicked` frame then close `4000 + code`.
public struct ImockJSONDialect: WireDialect {
    /// The path the server serves it on.
    public static let path = "/ws"

    public let name = "imock"

    /// A dialect for one connection.
    public init() {}

    public mutating func decode(_ message: WireMessage) -> [DialectInput] {
        guard case .text(let text) = message else {
            return [.close(WireClose(code: CloseCode.unsupportedData, reason: "the imock protocol uses text frames"))]
        }
        do {
            return [.command(Self.command(try ClientFrameParser.parse(text)))]
        } catch {
            let reply = ServerFrame.error(
                id: ClientFrameParser.bestEffortRequestID(text), code: error.code.rawValue, message: error.message,
                field: error.field)
            return [.reply(.text(reply.text))]
        }
    }

    public mutating func encode(reply: SessionReply, tag: RequestTag?) -> [WireMessage] {
        [.text(ServerFrame(reply: reply, id: tag?.rawValue).text)]
    }

    public mutating func encode(push: SessionPush) -> [WireMessage] {
        [.text(ServerFrame(push: push).text)]
    }

    public mutating func encode(end: SessionEnd) -> (messages: [WireMessage], close: WireClose) {
        switch end.cause {
        case .loginRefused(let tag, let error):
            let code = error.imockCode
            let frame = ServerFrame.loginError(id: tag.rawValue, code: code, message: error.message)
            return ([.text(frame.text)], WireClose(code: CloseCode.forCode(code), reason: end.reason))
        case .kicked(let code, let by):
            let close = WireClose(code: CloseCode.forCode(code), reason: end.reason)
            guard by == nil else { return ([.text(ServerFrame.kicked(code: code, reason: end.reason, by: by).text)], close) }
            let key = SharedGoodbyes.Key(dialect: name, code: code, reason: end.reason)
            let frame = SharedGoodbyes.shared.message(key) { .text(ServerFrame.kicked(code: code, reason: end.reason, by: nil).text) }
            return ([frame], close)
        case .tokenExpired:
            let close = WireClose(code: CloseCode.forCode(KickCode.tokenExpired.rawValue), reason: end.reason)
            return ([.text(ServerFrame.tokenExpired.text)], close)
        case .replaced:
            // The old instance of a device that logged in again is told as a kicked device is
            // (206, close 4206): a client retries a silent close 1000 as a drop, and two
            // instances of one device would then replace each other forever.
            let code = KickCode.loggedInOnAnotherDevice.rawValue
            let frame = ServerFrame.kicked(code: code, reason: end.reason, by: nil)
            return ([.text(frame.text)], WireClose(code: CloseCode.forCode(code), reason: end.reason))
        case .loggedOut:
            return ([], WireClose(code: CloseCode.normal, reason: end.reason))
        case .outputOverflow:
            return ([], WireClose(code: CloseCode.outputOverflow, reason: end.reason))
        }
    }

    /// The engine command a parsed frame asks for. The frame is consumed so that its strings
    /// move into the command instead of being retained there and released with the frame.
    public static func command(_ frame: consuming ClientFrame) -> SessionCommand {
        switch consume frame {
        case .login(let id, let request): .login(RequestTag(id), request)
        case .ping(let id): .ping(id.map(RequestTag.init))
        case .renewToken(let id, let token): .renewToken(RequestTag(id), token: token)
        case .logout(let id, let unbind): .logout(RequestTag(id), unbindDeviceToken: unbind)
        case .devices(let id): .devices(RequestTag(id))
        case .send(let id, let to, let text): .send(RequestTag(id), to: to, text: text)
        case .ack(let id, let messageId): .ack(RequestTag(id), messageId: messageId)
        }
    }
}

extension ServerFrame {
    /// The frame answering a request with `id`.
    public init(reply: SessionReply, id: String?) {
        switch reply {
        case .loginAccepted(let resource, let expiresAt, let serverTime):
            self = .loginOK(id: id ?? "", resource: resource, tokenExpiresAt: expiresAt, serverTime: serverTime)
        case .pong(let serverTime): self = .pong(id: id, serverTime: serverTime)
        case .tokenRenewed(let expiresAt): self = .renewTokenOK(id: id ?? "", tokenExpiresAt: expiresAt)
        case .loggedOut: self = .logoutOK(id: id ?? "")
        case .devices(let devices): self = .devicesOK(id: id ?? "", devices: devices)
        case .sent(let messageId, let timestamp): self = .sendOK(id: id ?? "", messageId: messageId, timestamp: timestamp)
        case .acked: self = .ackOK(id: id ?? "")
        case .refused(let error, let field):
            self = .error(id: id, code: error.imockCode, message: error.message, field: field)
        }
    }

    /// The frame of something the server sends unasked.
    public init(push: SessionPush) {
        switch push {
        case .tokenWillExpire(let expiresAt): self = .tokenWillExpire(expiresAt: expiresAt)
        case .offlineStart(let count): self = .offlineStart(count: count)
        case .message(let message): self = .message(message)
        case .offlineFinish: self = .offlineFinish
        case .syncStart(let type): self = .syncStart(type: type)
        case .syncFinish(let type, let error):
            self = .syncFinish(type: type, error: error.map { FrameErrorBody(code: $0.imockCode, message: $0.message) })
        }
    }

    /// The frame a journal event records, in the imock protocol's words (nil for a close):
    /// the control API's journal and event stream render every dialect's sessions this way.
    public init?(journal event: JournalEvent) {
        switch event {
        case .loginAccepted(let tag, let resource, let expiresAt, let serverTime):
            self = .loginOK(id: tag.rawValue, resource: resource, tokenExpiresAt: expiresAt, serverTime: serverTime)
        case .loginRefused(let tag, let error):
            self = .loginError(id: tag.rawValue, code: error.imockCode, message: error.message)
        case .refused(let tag, let error):
            self = .error(id: tag.rawValue, code: error.imockCode, message: error.message, field: nil)
        case .kicked(let code, let reason, let by): self = .kicked(code: code, reason: reason, by: by)
        case .tokenWillExpire(let expiresAt): self = .tokenWillExpire(expiresAt: expiresAt)
        case .tokenExpired: self = .tokenExpired
        case .closed: return nil
        }
    }
}

extension SessionError {
    /// The Easemob `EMErrorCode` number the imock protocol uses for this error.
    public var imockCode: Int {
        switch self {
        case .unknownAppKey: ProtocolErrorCode.invalidAppKey.rawValue
        case .serviceDisabled, .userDeactivated: KickCode.serviceForbidden.rawValue
        case .invalidUsername: ProtocolErrorCode.invalidUsername.rawValue
        case .invalidToken, .tokenMalformed, .tokenRevoked, .tokenKicked: KickCode.invalidToken.rawValue
        case .tokenExpired: KickCode.tokenExpired.rawValue
        case .tokenForAnotherUser: KickCode.authenticationFailed.rawValue
        case .activeUserLimitReached: KickCode.activeUserLimitReached.rawValue
        case .invalidDevice, .invalidResource, .platformNotAllowed, .invalidRecipient, .textTooLong:
            ProtocolErrorCode.invalidParam.rawValue
        case .deviceRefused(let code): code.rawValue
        case .alreadyLoggedIn: ProtocolErrorCode.alreadyLoggedIn.rawValue
        case .notLoggedIn: ProtocolErrorCode.notLoggedIn.rawValue
        case .recipientNotFound: ProtocolErrorCode.userNotFound.rawValue
        case .offlineQueueFull: ProtocolErrorCode.exceedServiceLimit.rawValue
        case .unbindFailed: ProtocolErrorCode.unbindDeviceTokenFailed.rawValue
        case .messageNotWaiting: ProtocolErrorCode.messageInvalid.rawValue
        case .syncFailed: ProtocolErrorCode.serverUnknownError.rawValue
        }
    }
}
