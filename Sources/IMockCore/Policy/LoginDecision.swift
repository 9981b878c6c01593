/// A live session's id, assigned by the server in creation order.
public struct SessionID: RawRepresentable, Sendable, Hashable, Comparable {
    /// The number.
    public let rawValue: UInt64

    /// Wraps a number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Orders by number (the tie-breaker between equal login times).
    public static func < (lhs: SessionID, rhs: SessionID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// One logged-in device of the user.
public struct LiveSession: Sendable, Hashable {
    /// The device behind one reference, shared with the engine's record of the session: a
    /// device is ~110 bytes, and every live session was held in two places. Stored first, so
    /// that the spare bits of its first word tag `SessionSlots`' cases.
    private let box: DeviceBox
    /// The session.
    public let id: SessionID
    /// Its device and login.
    public var device: LoginDevice { box.device }

    private final class DeviceBox: Sendable {
        let device: LoginDevice

        init(_ device: LoginDevice) { self.device = device }
    }

    /// Creates a session.
    public init(id: SessionID, device: LoginDevice) {
        self.id = id
        box = DeviceBox(device)
    }

    public static func == (lhs: LiveSession, rhs: LiveSession) -> Bool {
        lhs.id == rhs.id && (lhs.box === rhs.box || lhs.device == rhs.device)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(device)
    }
}

/// A device's UUID and resource: what "the same device" means.
public struct DeviceIdentity: Sendable, Hashable {
    /// The device UUID.
    public let uuid: String
    /// The resource id.
    public let resource: String

    /// Creates an identity.
    public init(uuid: String, resource: String) {
        self.uuid = uuid
        self.resource = resource
    }
}

extension LoginDevice {
    /// The device's identity.
    public var identity: DeviceIdentity {
        DeviceIdentity(uuid: uuid, resource: resource)
    }
}

/// A new login that the policy decides on.
public struct LoginAttempt: Sendable, Hashable {
    /// The device logging in.
    public let device: LoginDevice
    /// True for an SDK auto-login / reconnect (Provision `isManualLogin` false), false for an
    /// explicit login call.
    public let isAutoLogin: Bool
    /// The device of the user's most recent accepted login, live or not, when the server knows
    /// it; nil falls back to the latest live session. Only Easemob single-device 220 reads it.
    public let lastLoginDevice: DeviceIdentity?

    /// Creates an attempt.
    public init(device: LoginDevice, isAutoLogin: Bool = false, lastLoginDevice: DeviceIdentity? = nil) {
        self.device = device
        self.isAutoLogin = isAutoLogin
        self.lastLoginDevice = lastLoginDevice
    }
}

/// The new device, as a kicked device is told about it (E12: name and extension info).
public struct KickOrigin: Sendable, Hashable {
    /// The new device's name.
    public let deviceName: String
    /// The new device's `loginExtensionInfo`.
    public let extensionInfo: String
    /// The new device's resource.
    public let resource: String
    /// The new device's platform.
    public let platform: DevicePlatform

    /// Describes `device`.
    public init(device: LoginDevice) {
        self.deviceName = device.name
        self.extensionInfo = device.extensionInfo
        self.resource = device.resource
        self.platform = device.platform
    }
}

/// One session to end because of the new login.
public struct Kick: Sendable, Hashable {
    /// The session to kick.
    public let session: SessionID
    /// What it is told (206, or OpenIM 2002).
    public let signal: KickSignal
    /// The device that displaced it.
    public let by: KickOrigin

    /// Creates a kick.
    public init(session: SessionID, signal: KickSignal, by: KickOrigin) {
        self.session = session
        self.signal = signal
        self.by = by
    }
}

/// What the server does with a new login.
public enum LoginDecision: Sendable, Hashable {
    /// Log the device in under `resource`; if `replacing` is set, that session is the same device
    /// (UUID and resource) logging in again and is closed silently, without a kick code.
    case accept(resource: String, replacing: SessionID?)
    /// As `accept`, and first kick these sessions (earliest login first).
    case acceptAndKick(resource: String, replacing: SessionID?, kicks: [Kick])
    /// Refuse the login with this code (213, 214 or 220); nothing changes.
    case refuse(code: KickCode)
}
