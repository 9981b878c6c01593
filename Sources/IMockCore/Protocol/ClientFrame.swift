/// A frame a client sends, parsed and checked. See `docs/PROTOCOL.md`.
public enum ClientFrame: Sendable, Equatable {
    /// `login`: log this connection in.
    case login(id: String, LoginRequest)
    /// `ping`: answered by `pong`; allowed before login; `id` is optional.
    case ping(id: String?)
    /// `renewToken`: replace the session's token with a new one of the same user and app.
    case renewToken(id: String, token: String)
    /// `logout`: end the session; `unbindDeviceToken` asks to unbind the push token too.
    case logout(id: String, unbindDeviceToken: Bool)
    /// `devices`: list the user's logged-in devices.
    case devices(id: String)
    /// `send`: a 1:1 text message to user `to`.
    case send(id: String, to: String, text: String)
    /// `ack`: the client has stored offline message `messageId`; it is never delivered again.
    case ack(id: String, messageId: String)

    /// The request id, when the frame has one.
    public var requestID: String? {
        switch self {
        case .login(let id, _), .renewToken(let id, _), .logout(let id, _), .devices(let id),
            .send(let id, _, _), .ack(let id, _):
            id
        case .ping(let id): id
        }
    }
}

/// The content of a `login` frame.
public struct LoginRequest: Sendable, Equatable {
    /// `org#app`, as sent (checked at login: a bad or unknown key is refused with 100).
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

    /// Creates a request.
    public init(
        appKey: String, user: String, token: String, device: DeviceDescription, autoLogin: Bool = false,
        sync: [SyncType] = []
    ) {
        self.appKey = appKey
        self.user = user
        self.token = token
        self.device = device
        self.autoLogin = autoLogin
        self.sync = sync
    }
}

/// The `device` object of a `login` frame, already validated.
public struct DeviceDescription: Sendable, Equatable {
    /// From `os`, `customOSType` or `platformId`.
    public var platform: DevicePlatform
    /// `name`; may be empty.
    public var name: String
    /// `uuid`.
    public var uuid: String
    /// `resource`, when the client chose one; otherwise the server assigns `<platform>_<uuid>`.
    public var resource: String?
    /// `extension` (login extension info), ≤ 1024 characters.
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
