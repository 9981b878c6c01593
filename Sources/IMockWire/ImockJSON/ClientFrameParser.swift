import IMockCore

/// Parses client frames strictly: one JSON object with a known `op`, every required field
/// present with the right type. Unknown extra fields are ignored (forward compatibility).
///
/// Length limits bound what the server stores and forwards, so they count what costs memory:
/// UTF-8 bytes for imock's own identifiers, UTF-16 units where the vendor documents say
/// "characters" (`text`, like the extension's 1024), which also bounds bytes (≤ 3 per unit).
public enum ClientFrameParser {
    /// Longest request `id`, in UTF-8 bytes.
    public static let maximumIDLength = 64
    /// Longest text message, in UTF-16 units (the engine's limit for every dialect).
    public static let maximumTextLength = MessageLimits.maximumTextLength
    /// Longest `name`, `uuid` or `resource` of a device, in UTF-8 bytes (the engine's limit).
    public static let maximumDeviceFieldLength = MessageLimits.maximumDeviceFieldLength

    /// Parses one text frame: the common frames in one pass (``ClientFrameScanner``), the rest
    /// and every refusal through the general JSON reader.
    public static func parse(_ text: String) throws(FrameError) -> ClientFrame {
        if let frame = ClientFrameScanner.frame(text) { return frame }
        return try parseGenerally(text)
    }

    /// Parses one text frame through the JSON tree and ``JSONObjectReader``.
    static func parseGenerally(_ text: String) throws(FrameError) -> ClientFrame {
        try FrameError.reading(text) { reader, op in try frame(reader, op: op) }
    }

    /// Whether a request id of `byteCount` UTF-8 bytes is acceptable.
    static func isAcceptable(idBytes byteCount: Int) -> Bool {
        byteCount > 0 && byteCount <= maximumIDLength
    }

    /// The `id` of `text` when it is a JSON object with a string `id`: lets the engine echo the
    /// id in the `error` frame of a frame that failed to parse.
    public static func bestEffortRequestID(_ text: String) -> String? {
        guard let value = try? JSONValue.parse(text), let id = value["id"]?.stringValue,
            id.utf8.count <= maximumIDLength
        else { return nil }
        return id
    }

    private static func frame(_ reader: JSONObjectReader, op: String) throws -> ClientFrame {
        switch op {
        case "login": return .login(id: try requestID(reader), try login(reader))
        case "ping":
            guard let id = try reader.string("id") else { return .ping(id: nil) }
            return .ping(id: try checkedID(id, reader))
        case "renewToken": return .renewToken(id: try requestID(reader), token: try reader.requiredString("token"))
        case "logout":
            return .logout(id: try requestID(reader), unbindDeviceToken: try reader.bool("unbindDeviceToken") ?? false)
        case "devices": return .devices(id: try requestID(reader))
        case "send":
            let id = try requestID(reader)
            let to = try reader.requiredString("to")
            let text = try reader.requiredString("text")
            guard !text.isEmpty else { throw reader.invalid("text", "must not be empty") }
            return .send(id: id, to: to, text: text)
        case "ack": return .ack(id: try requestID(reader), messageId: try reader.requiredString("messageId"))
        default: throw FrameError.unknownOp(op)
        }
    }

    private static func requestID(_ reader: JSONObjectReader) throws(JSONFieldError) -> String {
        try checkedID(try reader.requiredString("id"), reader)
    }

    private static func checkedID(_ id: String, _ reader: JSONObjectReader) throws(JSONFieldError) -> String {
        guard isAcceptable(idBytes: id.utf8.count) else {
            throw reader.invalid("id", "must be 1 to \(maximumIDLength) bytes")
        }
        return id
    }

    private static func login(_ reader: JSONObjectReader) throws -> LoginRequest {
        let appKey = try reader.requiredString("appKey")
        let user = try reader.requiredString("user")
        let token = try reader.requiredString("token")
        let device = try self.device(try reader.requiredObject("device"))
        let autoLogin = try reader.bool("autoLogin") ?? false
        var sync: [SyncType] = []
        for (index, name) in (try reader.strings("sync") ?? []).enumerated() {
            let field = "sync[\(index)]"
            guard let type = SyncType(rawValue: name) else {
                throw FrameError.invalidValue(field: field, reason: "is not one of conversations, contacts, joinedGroups")
            }
            guard !sync.contains(type) else { throw FrameError.invalidValue(field: field, reason: "repeats \(name)") }
            sync.append(type)
        }
        return LoginRequest(appKey: appKey, user: user, token: token, device: device, autoLogin: autoLogin, sync: sync)
    }

    private static func device(_ reader: JSONObjectReader) throws -> DeviceDescription {
        let platform = try self.platform(reader)
        let name = try reader.string("name") ?? ""
        let uuid = try reader.requiredString("uuid")
        let resource = try reader.string("resource")
        let extensionInfo = try reader.string("extension") ?? ""
        let description = DeviceDescription(
            platform: platform, name: name, uuid: uuid, resource: resource, extensionInfo: extensionInfo)
        do {
            _ = try description.loginDevice(loginTimeMs: 0, tokenID: 0)
        } catch {
            throw frameError(for: error)
        }
        return description
    }

    private static func platform(_ reader: JSONObjectReader) throws -> DevicePlatform {
        let os = try reader.string("os")
        let custom = try reader.int("customOSType")
        let platformID = try reader.int("platformId")
        let given = [os != nil, custom != nil, platformID != nil].filter { $0 }.count
        guard given == 1 else { throw FrameError.ambiguousPlatform }
        if let os {
            switch os {
            case "ios": return .easemob(.ios)
            case "android": return .easemob(.android)
            case "windows": return .easemob(.windows)
            case "macos": return .easemob(.macos)
            case "web": return .easemob(.web)
            case "linux": return .easemob(.linux)
            default:
                throw FrameError.badPlatform(
                    field: "device.os", reason: "is not one of ios, android, windows, macos, web, linux")
            }
        }
        if let custom {
            guard let type = Int(exactly: custom), EasemobPlatform.customOSTypes.contains(type) else {
                throw FrameError.badPlatform(field: "device.customOSType", reason: "must be 1–100")
            }
            return .easemob(.custom(type))
        }
        guard let platformID, let id = Int(exactly: platformID), let platform = OpenIMPlatform(rawValue: id) else {
            throw FrameError.badPlatform(field: "device.platformId", reason: "must be 1–11")
        }
        return .openIM(platform)
    }

    private static func frameError(for error: DeviceDescriptionError) -> FrameError {
        switch error {
        case .extensionInfoTooLong(let length): .extensionTooLong(length)
        case .emptyDeviceUUID: .invalidValue(field: "device.uuid", reason: "must not be empty")
        case .deviceUUIDContainsSlash: .invalidValue(field: "device.uuid", reason: "must not contain /")
        case .emptyResource: .invalidValue(field: "device.resource", reason: "must not be empty")
        case .resourceContainsSlash: .invalidValue(field: "device.resource", reason: "must not contain /")
        case .customOSTypeOutOfRange, .missingCustomOSType, .unknownProvisionOSType:
            .badPlatform(field: "device.customOSType", reason: "must be 1–100")
        case .unknownOpenIMPlatformID: .badPlatform(field: "device.platformId", reason: "must be 1–11")
        case .negativeLoginTime: .invalidValue(field: "device", reason: "has a negative login time")
        case .fieldTooLong(let field):
            .invalidValue(field: "device.\(field)", reason: "is longer than \(maximumDeviceFieldLength) bytes")
        }
    }
}
