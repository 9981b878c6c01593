/// Parses client frames strictly: one JSON object with a known `op`, every required field
/// present with the right type. Unknown extra fields are ignored (forward compatibility).
public enum ClientFrameParser {
    /// Longest request `id`, in characters.
    public static let maximumIDLength = 64
    /// Longest text message, in characters.
    public static let maximumTextLength = 5000
    /// Longest `name`, `uuid` or `resource` of a device, in characters.
    public static let maximumDeviceFieldLength = 128

    /// Parses one text frame.
    public static func parse(_ text: String) throws(FrameError) -> ClientFrame {
        let (reader, op) = try FrameFieldReader.frame(text)
        switch op {
        case "login": return .login(id: try requestID(reader), try login(reader))
        case "ping":
            guard let id = try reader.optionalString("id") else { return .ping(id: nil) }
            return .ping(id: try checkedID(id))
        case "renewToken": return .renewToken(id: try requestID(reader), token: try reader.string("token"))
        case "logout":
            return .logout(
                id: try requestID(reader), unbindDeviceToken: try reader.optionalBool("unbindDeviceToken") ?? false)
        case "devices": return .devices(id: try requestID(reader))
        case "send":
            let id = try requestID(reader)
            let to = try reader.string("to")
            let text = try reader.string("text")
            guard !text.isEmpty else { throw .invalidValue(field: "text", reason: "must not be empty") }
            guard text.count <= maximumTextLength else {
                throw .invalidValue(field: "text", reason: "is longer than \(maximumTextLength) characters")
            }
            return .send(id: id, to: to, text: text)
        case "ack": return .ack(id: try requestID(reader), messageId: try reader.string("messageId"))
        default: throw .unknownOp(op)
        }
    }

    /// The `id` of `text` when it is a JSON object with a string `id`: lets the engine echo the
    /// id in the `error` frame of a frame that failed to parse.
    public static func bestEffortRequestID(_ text: String) -> String? {
        guard let value = try? JSONValue.parse(text), let id = value["id"]?.stringValue,
            id.count <= maximumIDLength
        else { return nil }
        return id
    }

    private static func requestID(_ reader: FrameFieldReader) throws(FrameError) -> String {
        try checkedID(try reader.string("id"))
    }

    private static func checkedID(_ id: String) throws(FrameError) -> String {
        guard !id.isEmpty, id.count <= maximumIDLength else {
            throw .invalidValue(field: "id", reason: "must be 1–\(maximumIDLength) characters")
        }
        return id
    }

    private static func login(_ reader: FrameFieldReader) throws(FrameError) -> LoginRequest {
        let appKey = try reader.string("appKey")
        let user = try reader.string("user")
        let token = try reader.string("token")
        let device = try self.device(try reader.object("device"))
        let autoLogin = try reader.optionalBool("autoLogin") ?? false
        var sync: [SyncType] = []
        for (index, element) in (try reader.optionalArray("sync") ?? []).enumerated() {
            let field = "sync[\(index)]"
            guard let name = element.stringValue else { throw .wrongType(field: field, expected: "string") }
            guard let type = SyncType(rawValue: name) else {
                throw .invalidValue(field: field, reason: "is not one of conversations, contacts, joinedGroups")
            }
            guard !sync.contains(type) else { throw .invalidValue(field: field, reason: "repeats \(name)") }
            sync.append(type)
        }
        return LoginRequest(appKey: appKey, user: user, token: token, device: device, autoLogin: autoLogin, sync: sync)
    }

    private static func device(_ reader: FrameFieldReader) throws(FrameError) -> DeviceDescription {
        let platform = try self.platform(reader)
        let name = try reader.optionalString("name") ?? ""
        let uuid = try reader.string("uuid")
        let resource = try reader.optionalString("resource")
        let extensionInfo = try reader.optionalString("extension") ?? ""
        for (field, value) in [("name", name), ("uuid", uuid), ("resource", resource ?? "")]
        where value.count > maximumDeviceFieldLength {
            throw .invalidValue(field: "device.\(field)", reason: "is longer than \(maximumDeviceFieldLength) characters")
        }
        let description = DeviceDescription(
            platform: platform, name: name, uuid: uuid, resource: resource, extensionInfo: extensionInfo)
        do {
            _ = try description.loginDevice(loginTimeMs: 0, tokenID: 0)
        } catch {
            throw frameError(for: error)
        }
        return description
    }

    private static func platform(_ reader: FrameFieldReader) throws(FrameError) -> DevicePlatform {
        let os = try reader.optionalString("os")
        let custom = try reader.optionalInt("customOSType")
        let platformID = try reader.optionalInt("platformId")
        let given = [os != nil, custom != nil, platformID != nil].filter { $0 }.count
        guard given == 1 else { throw .ambiguousPlatform }
        if let os {
            switch os {
            case "ios": return .easemob(.ios)
            case "android": return .easemob(.android)
            case "windows": return .easemob(.windows)
            case "macos": return .easemob(.macos)
            case "web": return .easemob(.web)
            case "linux": return .easemob(.linux)
            default:
                throw .badPlatform(
                    field: "device.os", reason: "is not one of ios, android, windows, macos, web, linux")
            }
        }
        if let custom {
            guard EasemobPlatform.customOSTypes.contains(Int(custom)) else {
                throw .badPlatform(field: "device.customOSType", reason: "must be 1–100")
            }
            return .easemob(.custom(Int(custom)))
        }
        guard let platformID, let platform = OpenIMPlatform(rawValue: Int(platformID)) else {
            throw .badPlatform(field: "device.platformId", reason: "must be 1–11")
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
        }
    }
}
