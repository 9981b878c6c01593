import IMockCore

/// Parses the text frames a server sends (the client-side reverse of ``ServerFrame/text``).
/// Strict like the server's own parser: one JSON object, a known `op`, every required member
/// present with the right type; unknown extra members are ignored and `null` counts as absent.
/// Errors reuse IMockCore's ``FrameError`` so both directions name faults the same way.
public enum ServerFrameParser {
    /// Parses one text frame.
    public static func parse(_ text: String) throws(FrameError) -> ServerFrame {
        let (reader, op) = try FrameFieldReader.frame(text)
        switch op {
        case "login.ok":
            return .loginOK(
                id: try reader.string("id"), resource: try reader.string("resource"),
                tokenExpiresAt: try reader.optionalInt("tokenExpiresAt"), serverTime: try reader.int("serverTime"))
        case "login.error":
            return .loginError(id: try reader.string("id"), code: try reader.code("code"), message: try reader.string("message"))
        case "pong":
            return .pong(id: try reader.optionalString("id"), serverTime: try reader.int("serverTime"))
        case "kicked":
            var by: KickedBy?
            if let byReader = try reader.optionalObject("by") {
                by = KickedBy(
                    deviceName: try byReader.optionalString("deviceName") ?? "",
                    extensionInfo: try byReader.optionalString("extension") ?? "")
            }
            return .kicked(code: try reader.code("code"), reason: try reader.string("reason"), by: by)
        case "token.willExpire": return .tokenWillExpire(expiresAt: try reader.int("expiresAt"))
        case "token.expired": return .tokenExpired
        case "offline.start":
            let count = try reader.int("count")
            guard count >= 0, count <= Int64(Int32.max) else {
                throw .invalidValue(field: "count", reason: "must be 0–\(Int32.max)")
            }
            return .offlineStart(count: Int(count))
        case "offline.finish": return .offlineFinish
        case "sync.start": return .syncStart(type: try reader.syncType("type"))
        case "sync.finish":
            var error: FrameErrorBody?
            if let errorReader = try reader.optionalObject("error") {
                error = FrameErrorBody(code: try errorReader.code("code"), message: try errorReader.string("message"))
            }
            return .syncFinish(type: try reader.syncType("type"), error: error)
        case "message":
            return .message(
                ChatMessage(
                    messageId: try reader.string("messageId"), from: try reader.string("from"),
                    to: try reader.string("to"), text: try reader.string("text"),
                    timestamp: try reader.int("timestamp")))
        case "renewToken.ok":
            return .renewTokenOK(id: try reader.string("id"), tokenExpiresAt: try reader.optionalInt("tokenExpiresAt"))
        case "logout.ok": return .logoutOK(id: try reader.string("id"))
        case "devices.ok":
            var devices: [DeviceEntry] = []
            for index in try reader.array("devices").indices {
                let entry = try reader.element("devices", index)
                devices.append(
                    DeviceEntry(
                        resource: try entry.string("resource"), deviceUUID: try entry.string("deviceUUID"),
                        deviceName: try entry.string("deviceName")))
            }
            return .devicesOK(id: try reader.string("id"), devices: devices)
        case "send.ok":
            return .sendOK(
                id: try reader.string("id"), messageId: try reader.string("messageId"),
                timestamp: try reader.int("timestamp"))
        case "ack.ok": return .ackOK(id: try reader.string("id"))
        case "error":
            return .error(
                id: try reader.optionalString("id"), code: try reader.code("code"),
                message: try reader.string("message"), field: try reader.optionalString("field"))
        default: throw .unknownOp(op)
        }
    }
}
