import IMockCore

/// Parses the text frames a server sends (the client-side reverse of ``ServerFrame/text``).
/// Strict like the server's own parser: one JSON object, a known `op`, every required member
/// present with the right type; unknown extra members are ignored and `null` counts as absent.
/// Errors reuse IMockCore's ``FrameError`` so both directions name faults the same way.
public enum ServerFrameParser {
    /// Parses one text frame.
    public static func parse(_ text: String) throws(FrameError) -> ServerFrame {
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { throw .invalidJSON(error) }
        guard case .object = value else { throw .notAnObject }
        let reader = ServerFieldReader(object: value, prefix: "")
        let op = try reader.string("op")
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

/// Typed access to one JSON object of a server frame; errors carry the dotted field path.
struct ServerFieldReader {
    let object: JSONValue
    let prefix: String

    func path(_ key: String) -> String { prefix + key }

    func string(_ key: String) throws(FrameError) -> String {
        guard let value = try optionalString(key) else { throw .missingField(path(key)) }
        return value
    }

    func optionalString(_ key: String) throws(FrameError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let string = value.stringValue else { throw .wrongType(field: path(key), expected: "string") }
        return string
    }

    func int(_ key: String) throws(FrameError) -> Int64 {
        guard let value = try optionalInt(key) else { throw .missingField(path(key)) }
        return value
    }

    func optionalInt(_ key: String) throws(FrameError) -> Int64? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let int = value.intValue else { throw .wrongType(field: path(key), expected: "integer") }
        return int
    }

    /// An error or kick code: an integer that fits `Int32`, so it never overflows `Int` math.
    func code(_ key: String) throws(FrameError) -> Int {
        let value = try int(key)
        guard value >= 0, value <= Int64(Int32.max) else {
            throw .invalidValue(field: path(key), reason: "must be 0–\(Int32.max)")
        }
        return Int(value)
    }

    func syncType(_ key: String) throws(FrameError) -> SyncType {
        let name = try string(key)
        guard let type = SyncType(rawValue: name) else {
            throw .invalidValue(field: path(key), reason: "is not one of conversations, contacts, joinedGroups")
        }
        return type
    }

    func array(_ key: String) throws(FrameError) -> [JSONValue] {
        guard let value = object[key], !value.isNull else { throw .missingField(path(key)) }
        guard let array = value.arrayValue else { throw .wrongType(field: path(key), expected: "array") }
        return array
    }

    func element(_ key: String, _ index: Int) throws(FrameError) -> ServerFieldReader {
        let elements = try array(key)
        let field = "\(path(key))[\(index)]"
        guard elements.indices.contains(index), case .object = elements[index] else {
            throw .wrongType(field: field, expected: "object")
        }
        return ServerFieldReader(object: elements[index], prefix: field + ".")
    }

    func optionalObject(_ key: String) throws(FrameError) -> ServerFieldReader? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .object = value else { throw .wrongType(field: path(key), expected: "object") }
        return ServerFieldReader(object: value, prefix: path(key) + ".")
    }
}
