import IMockCore

/// A frame the server sends. ``json`` gives its wire form; see `docs/PROTOCOL.md`.
public enum ServerFrame: Sendable, Equatable {
    /// `login.ok`: the connection is logged in as `resource`.
    case loginOK(id: String, resource: String, tokenExpiresAt: Int64?, serverTime: Int64)
    /// `login.error`: the login was refused; a close with `4000 + code` follows.
    case loginError(id: String, code: Int, message: String)
    /// `pong`: the answer to `ping`, with the server's clock (so a client can measure skew).
    case pong(id: String?, serverTime: Int64)
    /// `kicked`: the session is over; a close with `4000 + code` follows. `by` is set for 206
    /// and 220: the device that took the place.
    case kicked(code: Int, reason: String, by: KickedBy?)
    /// `token.willExpire`: the token expires at `expiresAt`; renew it.
    case tokenWillExpire(expiresAt: Int64)
    /// `token.expired`: a close with 4108 follows.
    case tokenExpired
    /// `offline.start`: `count` offline messages follow.
    case offlineStart(count: Int)
    /// `offline.finish`: all offline messages were sent.
    case offlineFinish
    /// `sync.start`: data sync of `type` begins.
    case syncStart(type: SyncType)
    /// `sync.finish`: data sync of `type` ended, with an error when it could not finish.
    case syncFinish(type: SyncType, error: FrameErrorBody?)
    /// `message`: a 1:1 text message, live or offline.
    case message(ChatMessage)
    /// `renewToken.ok`: the new token is in force.
    case renewTokenOK(id: String, tokenExpiresAt: Int64?)
    /// `logout.ok`: a close with 1000 follows.
    case logoutOK(id: String)
    /// `devices.ok`: the user's logged-in devices, earliest login first.
    case devicesOK(id: String, devices: [DeviceEntry])
    /// `send.ok`: the message was accepted (delivered or queued).
    case sendOK(id: String, messageId: String, timestamp: Int64)
    /// `ack.ok`: the offline message is removed from the queue.
    case ackOK(id: String)
    /// `error`: a frame was refused; the connection stays open.
    case error(id: String?, code: Int, message: String, field: String?)

    /// The `op` of the frame.
    public var op: String {
        switch self {
        case .loginOK: "login.ok"
        case .loginError: "login.error"
        case .pong: "pong"
        case .kicked: "kicked"
        case .tokenWillExpire: "token.willExpire"
        case .tokenExpired: "token.expired"
        case .offlineStart: "offline.start"
        case .offlineFinish: "offline.finish"
        case .syncStart: "sync.start"
        case .syncFinish: "sync.finish"
        case .message: "message"
        case .renewTokenOK: "renewToken.ok"
        case .logoutOK: "logout.ok"
        case .devicesOK: "devices.ok"
        case .sendOK: "send.ok"
        case .ackOK: "ack.ok"
        case .error: "error"
        }
    }

    /// The frame as a JSON object, `op` first, members in a fixed order.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("op", .string(op))]
        func add(_ key: String, _ value: JSONValue) { members.append((key, value)) }
        switch self {
        case .loginOK(let id, let resource, let expiresAt, let serverTime):
            add("id", .string(id))
            add("resource", .string(resource))
            add("tokenExpiresAt", expiresAt.map { .int($0) } ?? .null)
            add("serverTime", .int(serverTime))
        case .loginError(let id, let code, let message):
            add("id", .string(id))
            add("code", .int(Int64(code)))
            add("message", .string(message))
        case .pong(let id, let serverTime):
            if let id { add("id", .string(id)) }
            add("serverTime", .int(serverTime))
        case .kicked(let code, let reason, let by):
            add("code", .int(Int64(code)))
            add("reason", .string(reason))
            if let by { add("by", by.json) }
        case .tokenWillExpire(let expiresAt):
            add("expiresAt", .int(expiresAt))
        case .tokenExpired, .offlineFinish:
            break
        case .offlineStart(let count):
            add("count", .int(Int64(count)))
        case .syncStart(let type):
            add("type", .string(type.rawValue))
        case .syncFinish(let type, let error):
            add("type", .string(type.rawValue))
            if let error { add("error", error.json) }
        case .message(let message):
            for member in message.jsonMembers { members.append(member) }
        case .renewTokenOK(let id, let expiresAt):
            add("id", .string(id))
            add("tokenExpiresAt", expiresAt.map { .int($0) } ?? .null)
        case .logoutOK(let id), .ackOK(let id):
            add("id", .string(id))
        case .devicesOK(let id, let devices):
            add("id", .string(id))
            add("devices", .array(devices.map(\.json)))
        case .sendOK(let id, let messageId, let timestamp):
            add("id", .string(id))
            add("messageId", .string(messageId))
            add("timestamp", .int(timestamp))
        case .error(let id, let code, let message, let field):
            if let id { add("id", .string(id)) }
            add("code", .int(Int64(code)))
            add("message", .string(message))
            if let field { add("field", .string(field)) }
        }
        return .object(members)
    }

    /// The text frame to send: compact JSON, deterministic byte for byte. The two frames of
    /// every message (its push and its sender's `send.ok`) are written directly, member by
    /// member as ``json`` lists them (`ServerFrameTests` holds the two forms equal).
    public var text: String {
        switch self {
        case .message(let message):
            var writer = JSONObjectWriter()
            writer.add("op", "message")
            writer.add("messageId", message.messageId)
            writer.add("from", message.from)
            writer.add("to", message.to)
            writer.add("text", message.text)
            writer.add("timestamp", message.timestamp)
            return writer.finish()
        case .sendOK(let id, let messageId, let timestamp):
            var writer = JSONObjectWriter()
            writer.add("op", "send.ok")
            writer.add("id", id)
            writer.add("messageId", messageId)
            writer.add("timestamp", timestamp)
            return writer.finish()
        default:
            return json.encodedString
        }
    }
}

extension KickedBy {
    /// `{deviceName, extension}`, the `by` of a `kicked` frame.
    var json: JSONValue { .object([("deviceName", .string(deviceName)), ("extension", .string(extensionInfo))]) }
}

/// `{code, message}`: the error of a `sync.finish`.
public struct FrameErrorBody: Sendable, Equatable {
    /// The numeric code.
    public var code: Int
    /// A sentence.
    public var message: String

    /// Creates the value.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    var json: JSONValue { .object([("code", .int(Int64(code))), ("message", .string(message))]) }
}

extension ChatMessage {
    var jsonMembers: [(key: String, value: JSONValue)] {
        [
            ("messageId", .string(messageId)), ("from", .string(from)), ("to", .string(to)),
            ("text", .string(text)), ("timestamp", .int(timestamp)),
        ]
    }
}

extension DeviceEntry {
    var json: JSONValue {
        .object([("resource", .string(resource)), ("deviceUUID", .string(deviceUUID)), ("deviceName", .string(deviceName))])
    }
}
