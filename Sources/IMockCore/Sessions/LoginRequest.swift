/// What a login carries, whatever the dialect: app, user, token, the device and its wishes.
public struct LoginRequest: Sendable, Equatable {
    /// `org#app`, as sent (checked at login: a bad or unknown key is refused).
    public var appKey: String
    /// The username, as sent (folded to lower case at login).
    public var user: String
    /// The user token.
    public var token: String
    /// The device logging in.
    public var device: DeviceDescription
    /// True for an SDK auto-login / reconnect, false for an explicit login call.
    public var autoLogin: Bool
    /// The data-sync types the client wants after login, in order, without repeats.
    public var sync: [SyncType]
    /// True when the device renews its token over REST instead of on its connection (the
    /// Easemob Web SDK's `renewToken` calls `GET …/sdk/users/{user}/token/expires` with the new
    /// token): that call then renews the session (``SessionEngine/tokenPresentedOverREST(app:user:token:nowMs:directory:)``).
    public var renewsTokenOverREST: Bool
    /// How long after its deadline the token warning goes out (0: at it). A client that
    /// decides from the warning's server time whether at most a share of the life it measured at
    /// login (on its own clock, which starts after the server's) is left — the Easemob Web SDK
    /// 4.15.0 and later, over msync — misses a warning sent exactly at the deadline; on the real
    /// service it learns the time from a heartbeat answer, which comes after the threshold.
    public var tokenWarningDelayMs: Int64

    /// The warning delay of a client that reads the server time as a heartbeat answer carries
    /// it (``tokenWarningDelayMs``): a second, well inside the Web SDK's 30 s heartbeat.
    public static let heartbeatWarningDelayMs: Int64 = 1000

    /// Creates a request.
    public init(
        appKey: String, user: String, token: String, device: DeviceDescription, autoLogin: Bool = false,
        sync: [SyncType] = [], renewsTokenOverREST: Bool = false, tokenWarningDelayMs: Int64 = 0
    ) {
        self.appKey = appKey
        self.user = user
        self.token = token
        self.device = device
        self.autoLogin = autoLogin
        self.sync = sync
        self.renewsTokenOverREST = renewsTokenOverREST
        self.tokenWarningDelayMs = tokenWarningDelayMs
    }
}

/// The device of a login, as the dialect read it (checked by ``loginDevice(loginTimeMs:tokenID:)``).
public struct DeviceDescription: Sendable, Equatable {
    /// The Easemob OS or custom type, or the OpenIM platform id.
    public var platform: DevicePlatform
    /// The device name; may be empty.
    public var name: String
    /// The device UUID.
    public var uuid: String
    /// The resource, when the client chose one; otherwise the server assigns `<platform>_<uuid>`.
    public var resource: String?
    /// The login extension info, ≤ 1024 UTF-16 units.
    public var extensionInfo: String

    /// Creates a description (not validated; ``loginDevice(loginTimeMs:tokenID:)`` checks it).
    public init(
        platform: DevicePlatform, name: String = "", uuid: String, resource: String? = nil, extensionInfo: String = ""
    ) {
        self.platform = platform
        self.name = name
        self.uuid = uuid
        self.resource = resource
        self.extensionInfo = extensionInfo
    }

    /// The device as the policy sees it.
    public func loginDevice(loginTimeMs: Int64, tokenID: UInt64) throws(DeviceDescriptionError) -> LoginDevice {
        try LoginDevice(
            platform: platform, name: name, uuid: uuid, resource: resource, extensionInfo: extensionInfo,
            loginTimeMs: loginTimeMs, tokenID: tokenID)
    }
}

/// A data-sync type a client may ask for at login (seed `000 § 登录完成前使用本地数据库`).
public enum SyncType: String, Sendable, Hashable, CaseIterable {
    /// The conversation list.
    case conversations
    /// The contact list.
    case contacts
    /// The groups the user joined.
    case joinedGroups
}
