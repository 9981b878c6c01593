import IMockCore
import IMockWire

// The imock JSON protocol's frames and the client's neutral words, both ways: the JSON wire
// uses one direction, callers that write JSON frames over another dialect's wire (the soak)
// the other.

extension ClientFrame {
    /// The frame that carries `request`.
    public init(_ request: SessionCommand) {
        switch request {
        case .login(let tag, let login): self = .login(id: tag.rawValue, login)
        case .ping(let tag): self = .ping(id: tag?.rawValue)
        case .renewToken(let tag, let token): self = .renewToken(id: tag.rawValue, token: token)
        case .logout(let tag, let unbind): self = .logout(id: tag.rawValue, unbindDeviceToken: unbind)
        case .devices(let tag): self = .devices(id: tag.rawValue)
        case .send(let tag, let to, let text): self = .send(id: tag.rawValue, to: to, text: text)
        case .ack(let tag, let messageId): self = .ack(id: tag.rawValue, messageId: messageId)
        }
    }
}

extension ServerInput {
    /// What `frame` says.
    public init(_ frame: ServerFrame) {
        switch frame {
        case .loginOK(let id, let resource, let expiresAt, let serverTime):
            self = .reply(RequestTag(id), .loginAccepted(resource: resource, tokenExpiresAt: expiresAt, serverTime: serverTime))
        case .loginError(let id, let code, let message):
            self = .reply(RequestTag(id), .loginRefused(ClientError(code: code, message: message)))
        case .pong(let id, let serverTime): self = .reply(id.map(RequestTag.init), .pong(serverTime: serverTime))
        case .kicked(let code, let reason, let by): self = .end(.kicked(code: code, reason: reason, by: by))
        case .tokenWillExpire(let expiresAt): self = .push(.tokenWillExpire(expiresAt: expiresAt))
        case .tokenExpired: self = .end(.tokenExpired)
        case .offlineStart(let count): self = .push(.offlineStart(count: count))
        case .offlineFinish: self = .push(.offlineFinish)
        case .syncStart(let type): self = .push(.syncStart(type))
        case .syncFinish(let type, let error):
            self = .push(.syncFinish(type, error: error.map { ClientError(code: $0.code, message: $0.message) }))
        case .message(let message): self = .push(.message(message))
        case .renewTokenOK(let id, let expiresAt): self = .reply(RequestTag(id), .tokenRenewed(tokenExpiresAt: expiresAt))
        case .logoutOK(let id): self = .reply(RequestTag(id), .loggedOut)
        case .devicesOK(let id, let devices): self = .reply(RequestTag(id), .devices(devices))
        case .sendOK(let id, let messageId, let timestamp):
            self = .reply(RequestTag(id), .sent(messageId: messageId, timestamp: timestamp))
        case .ackOK(let id): self = .reply(RequestTag(id), .acked)
        case .error(let id, let code, let message, let field):
            self = .reply(id.map(RequestTag.init), .refused(ClientError(code: code, message: message), field: field))
        }
    }
}

extension ServerFrame {
    /// The frame that says `input`; a reply without a tag has the id "" where its frame needs one.
    public init(_ input: ServerInput) {
        switch input {
        case .reply(let tag, let reply): self.init(reply, id: tag?.rawValue)
        case .push(.tokenWillExpire(let expiresAt)): self = .tokenWillExpire(expiresAt: expiresAt)
        case .push(.offlineStart(let count)): self = .offlineStart(count: count)
        case .push(.message(let message)): self = .message(message)
        case .push(.offlineFinish): self = .offlineFinish
        case .push(.syncStart(let type)): self = .syncStart(type: type)
        case .push(.syncFinish(let type, let error)):
            self = .syncFinish(type: type, error: error.map { FrameErrorBody(code: $0.code, message: $0.message) })
        case .end(.kicked(let code, let reason, let by)): self = .kicked(code: code, reason: reason, by: by)
        case .end(.tokenExpired): self = .tokenExpired
        }
    }

    private init(_ reply: ServerReply, id: String?) {
        switch reply {
        case .loginAccepted(let resource, let expiresAt, let serverTime):
            self = .loginOK(id: id ?? "", resource: resource, tokenExpiresAt: expiresAt, serverTime: serverTime)
        case .loginRefused(let error): self = .loginError(id: id ?? "", code: error.code, message: error.message)
        case .pong(let serverTime): self = .pong(id: id, serverTime: serverTime)
        case .tokenRenewed(let expiresAt): self = .renewTokenOK(id: id ?? "", tokenExpiresAt: expiresAt)
        case .loggedOut: self = .logoutOK(id: id ?? "")
        case .devices(let devices): self = .devicesOK(id: id ?? "", devices: devices)
        case .sent(let messageId, let timestamp): self = .sendOK(id: id ?? "", messageId: messageId, timestamp: timestamp)
        case .acked: self = .ackOK(id: id ?? "")
        case .refused(let error, let field): self = .error(id: id, code: error.code, message: error.message, field: field)
        }
    }
}
