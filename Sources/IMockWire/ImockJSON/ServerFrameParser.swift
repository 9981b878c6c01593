import IMockCore


/// Parses the text frames a server sends (the client-side reverse of ``ServerFrame/text``).
/// Strict like the server's own parser: one JSON object, a known `op`, every required member
/// present with the right type; unknown extra members are ignored and `null` counts as absent.
/// Errors reuse IMockCore's ``FrameError`` so both directions name faults the same way.
public enum ServerFrameParser {
    /// Error and kick codes fit `Int32`, so they never overflow `Int` arithmetic.
    static let codeRange: ClosedRange<Int64> = 0...Int64(Int32.max)

    /// Parses one text frame.
    public static func parse(_ text: String) throws(FrameError) -> ServerFrame {
        try FrameError.reading(text) { reader, op in try frame(reader, op: op) }
    }

    private static func frame(_ reader: JSONObjectReader, op: String) throws -> ServerFrame {
        switch op {
        case "login.ok":
            return .loginOK(
                id: try reader.requiredString("id"), resource: try reader.requiredString("resource"),
                tokenExpiresAt: try reader.int("tokenExpiresAt"), serverTime: try reader.requiredInt("serverTime"))
        case "login.error":
            return .loginError(
                id: try reader.requiredString("id"), code: try code(reader), message: try reader.requiredString("message"))
        case "pong":
            return .pong(id: try reader.string("id"), serverTime: try reader.requiredInt("serverTime"))
        case "kicked":
            var by: KickedBy?
            if let byReader = try reader.object("by") {
                by = KickedBy(
                    deviceName: try byReader.string("deviceName") ?? "", extensionInfo: try byReader.string("extension") ?? "")
            }
            return .kicked(code: try code(reader), reason: try reader.requiredString("reason"), by: by)
        case "token.willExpire": return .tokenWillExpire(expiresAt: try reader.requiredInt("expiresAt"))
        case "token.expired": return .tokenExpired
        case "offline.start": return .offlineStart(count: Int(try reader.requiredInt("count", in: codeRange)))
        case "offline.finish": return .offlineFinish
        case "sync.start": return .syncStart(type: try syncType(reader))
        case "sync.finish":
            var error: FrameErrorBody?
            if let errorReader = try reader.object("error") {
                error = FrameErrorBody(code: try code(errorReader), message: try errorReader.requiredString("message"))
            }
            return .syncFinish(type: try syncType(reader), error: error)
        case "message":
            return .message(
                ChatMessage(
                    messageId: try reader.requiredString("messageId"), from: try reader.requiredString("from"),
                    to: try reader.requiredString("to"), text: try reader.requiredString("text"),
                    timestamp: try reader.requiredInt("timestamp")))
        case "renewToken.ok":
            return .renewTokenOK(id: try reader.requiredString("id"), tokenExpiresAt: try reader.int("tokenExpiresAt"))
        case "logout.ok": return .logoutOK(id: try reader.requiredString("id"))
        case "devices.ok":
            guard let entries = try reader.objects("devices") else { throw JSONFieldError(path: "devices", problem: .missing) }
            let devices = try entries.map { entry throws(JSONFieldError) in
                DeviceEntry(
                    resource: try entry.requiredString("resource"), deviceUUID: try entry.requiredString("deviceUUID"),
                    deviceName: try entry.requiredString("deviceName"))
            }
            return .devicesOK(id: try reader.requiredString("id"), devices: devices)
        case "send.ok":
            return .sendOK(
                id: try reader.requiredString("id"), messageId: try reader.requiredString("messageId"),
                timestamp: try reader.requiredInt("timestamp"))
        case "ack.ok": return .ackOK(id: try reader.requiredString("id"))
        case "error":
            return .error(
                id: try reader.string("id"), code: try code(reader), message: try reader.requiredString("message"),
                field: try reader.string("field"))
        default: throw FrameError.unknownOp(op)
        }
    }

    private static func code(_ reader: JSONObjectReader) throws(JSONFieldError) -> Int {
        Int(try reader.requiredInt("code", in: codeRange))
    }

    private static func syncType(_ reader: JSONObjectReader) throws(JSONFieldError) -> SyncType {
        guard let type = SyncType(rawValue: try reader.requiredString("type")) else {
            throw reader.invalid("type", "is not one of conversations, contacts, joinedGroups")
        }
        return type
    }
}
