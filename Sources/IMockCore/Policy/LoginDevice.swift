/// A device platform of either vendor family.
public enum DevicePlatform: Sendable, Hashable {
    /// An Easemob platform.
    case easemob(EasemobPlatform)
    /// An OpenIM platform id.
    case openIM(OpenIMPlatform)

    /// The prefix of resources the engine assigns.
    /// The platform group (Easemob: `mobile`, `desktop`, `web`, `linux`, `custom:N`) or class
    /// (OpenIM: `mobile`, `pc`, `web`, …) that device limits and kicks are counted in.
    public var groupName: String {
        switch self {
        case .easemob(let platform): platform.group.seedName
        case .openIM(let platform): "\(platform.platformClass)"
        }
    }

    public var resourcePrefix: String {
        switch self {
        case .easemob(let platform): platform.resourcePrefix
        case .openIM(let platform): platform.resourcePrefix
        }
    }

    /// The OpenIM platform id; nil for an Easemob platform.
    public var openIMPlatformID: Int? {
        if case .openIM(let platform) = self { return platform.rawValue }
        return nil
    }
}

/// One device's login: what it is, when it logged in and with which token (E11).
public struct LoginDevice: Sendable, Hashable {
    /// The longest `loginExtensionInfo`, in UTF-16 units (seed `000 § 配置登录设备信息`).
    public static let maxExtensionInfoLength = 1024

    /// The platform (Easemob OS or custom type, or OpenIM platform id).
    public let platform: DevicePlatform
    /// `customDeviceName` / `deviceName`; may be empty.
    public let name: String
    /// The device UUID.
    public let uuid: String
    /// The resource id: the one the device asked for, or `<platform prefix>_<uuid>` when it gave
    /// none. Deriving it from the UUID keeps it stable across reconnects of the same device.
    public let resource: String
    /// `loginExtensionInfo`, delivered to the devices this login kicks.
    public var extensionInfo: String { boxedExtensionInfo?.text ?? "" }
    /// The extension info behind one reference, nil when empty (as most devices send it):
    /// inline it cost every live session's device 16 bytes (docs/BENCHMARKS.md, `fleet`).
    private let boxedExtensionInfo: ExtensionInfo?

    private final class ExtensionInfo: Sendable {
        let text: String

        init(_ text: String) { self.text = text }
    }
    /// Login time, epoch milliseconds on the server's clock.
    public let loginTimeMs: Int64
    /// The id of the token the device logged in with (`TokenClaims.tokenID`).
    public let tokenID: UInt64

    /// Creates a validated device description.
    public init(
        platform: DevicePlatform,
        name: String = "",
        uuid: String,
        resource: String? = nil,
        extensionInfo: String = "",
        loginTimeMs: Int64,
        tokenID: UInt64
    ) throws(DeviceDescriptionError) {
        if case .easemob(let easemob) = platform { try easemob.validate() }
        for (field, value) in [("name", name), ("uuid", uuid), ("resource", resource ?? "")]
        where value.utf8.count > MessageLimits.maximumDeviceFieldLength {
            throw .fieldTooLong(field)
        }
        guard !uuid.isEmpty else { throw .emptyDeviceUUID }
        guard !uuid.contains("/") else { throw .deviceUUIDContainsSlash }
        if let resource {
            guard !resource.isEmpty else { throw .emptyResource }
            guard !resource.contains("/") else { throw .resourceContainsSlash }
        }
        let extensionLength = extensionInfo.utf16.count
        guard extensionLength <= Self.maxExtensionInfoLength else {
            throw .extensionInfoTooLong(extensionLength)
        }
        guard loginTimeMs >= 0 else { throw .negativeLoginTime(loginTimeMs) }
        self.platform = platform
        self.name = name
        boxedExtensionInfo = extensionInfo.isEmpty ? nil : ExtensionInfo(extensionInfo)
        self.uuid = uuid
        self.resource = resource ?? Self.assignedResource(platform: platform, uuid: uuid)
        self.loginTimeMs = loginTimeMs
        self.tokenID = tokenID
    }

    /// The resource the engine assigns to a device that gave none: `<platform prefix>_<uuid>`,
    /// e.g. `android_b069b852-…` or `custom7_…` (the documented `{device type}_{id}` form).
    public static func assignedResource(platform: DevicePlatform, uuid: String) -> String {
        "\(platform.resourcePrefix)_\(uuid)"
    }

    public static func == (lhs: LoginDevice, rhs: LoginDevice) -> Bool {
        lhs.platform == rhs.platform && lhs.uuid == rhs.uuid && lhs.resource == rhs.resource
            && lhs.loginTimeMs == rhs.loginTimeMs && lhs.tokenID == rhs.tokenID && lhs.name == rhs.name
            && lhs.extensionInfo == rhs.extensionInfo
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(platform)
        hasher.combine(name)
        hasher.combine(uuid)
        hasher.combine(resource)
        hasher.combine(extensionInfo)
        hasher.combine(loginTimeMs)
        hasher.combine(tokenID)
    }

    /// Whether `other` is the same device: same UUID and same resource.
    public func isSameDevice(as other: LoginDevice) -> Bool {
        uuid == other.uuid && resource == other.resource
    }
}
