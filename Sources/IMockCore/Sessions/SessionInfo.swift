/// A live session as the REST `status` / `resources` routes and the control API see it.
public struct SessionInfo: Sendable, Equatable {
    /// The session's connection.
    public var connection: ConnectionID
    /// The policy's id of the session.
    public var sessionID: SessionID
    /// The app.
    public var app: AppKey
    /// The username.
    public var user: String
    /// The device (platform, name, UUID, resource, extension, login time, token id).
    public var device: LoginDevice
    /// Whether the login was an auto-login.
    public var autoLogin: Bool
    /// The current token's expiry (after renewals), nil = never.
    public var tokenExpiresAtMs: Int64?

    /// The entry of `devices.ok` and of REST `resources`.
    public var deviceEntry: DeviceEntry {
        DeviceEntry(resource: device.resource, deviceUUID: device.uuid, deviceName: device.name)
    }
}

/// Engine-wide settings.
public struct SessionEngineConfiguration: Sendable, Equatable {
    /// `token.willExpire` is sent when this percentage of the token's life has passed (1–99;
    /// default 80, so about 20 % is left, C8).
    public var tokenWarningPercent: Int
    /// Most offline messages queued per user; a `send` beyond it fails with 4.
    public var maximumOfflineMessagesPerUser: Int

    /// Creates settings; values outside their ranges are clamped.
    public init(tokenWarningPercent: Int = 80, maximumOfflineMessagesPerUser: Int = 10_000) {
        self.tokenWarningPercent = min(max(tokenWarningPercent, 1), 99)
        self.maximumOfflineMessagesPerUser = max(maximumOfflineMessagesPerUser, 0)
    }
}
