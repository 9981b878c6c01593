import IMockCore

/// The client's configuration (seed `000 § 配置登录设备信息`; E11).
public struct ClientOptions: Sendable, Equatable {
    /// `org#app`.
    public var appKey: String
    /// This device: OS or custom OS type or OpenIM platform id, name, UUID, extension info.
    public var device: DeviceDescription
    /// The data-sync types asked for at login, in order (E4, C11).
    public var syncTypes: [SyncType]
    /// The vendor vocabulary of the callbacks.
    public var profile: SDKProfile
    /// The reconnect back-off; defaults to the profile's.
    public var reconnect: ReconnectPolicy
    /// How long a login may take (database + socket + the login accepted), ms.
    public var loginTimeoutMs: Int64
    /// How often a connected client pings, ms (the server closes a silent connection after 30 s).
    public var keepAliveIntervalMs: Int64
    /// The seed of the reconnect jitter.
    public var randomSeed: UInt64
    /// The wire dialect the client speaks (the state machine is the same for all).
    public var transport: ClientTransport
    /// A bug planted on purpose for the harness's own tests; nil in real use.
    public var plantedBug: PlantedBug? = nil

    /// Creates options; refuses a device the server would refuse (E11: extension ≤ 1024).
    public init(
        appKey: String, device: DeviceDescription, syncTypes: [SyncType] = [], profile: SDKProfile = .easemob,
        reconnect: ReconnectPolicy? = nil, loginTimeoutMs: Int64 = 30_000, keepAliveIntervalMs: Int64 = 10_000,
        randomSeed: UInt64 = 0, transport: ClientTransport = .imockJSON
    ) throws(ClientOptionsError) {
        do { _ = try device.loginDevice(loginTimeMs: 0, tokenID: 0) } catch { throw .invalidDevice(error) }
        var seen: Set<SyncType> = []
        for type in syncTypes where !seen.insert(type).inserted { throw .repeatedSyncType(type) }
        guard loginTimeoutMs > 0 else { throw .nonPositiveInterval(field: "loginTimeoutMs", loginTimeoutMs) }
        guard keepAliveIntervalMs > 0 else {
            throw .nonPositiveInterval(field: "keepAliveIntervalMs", keepAliveIntervalMs)
        }
        self.appKey = appKey
        self.device = device
        self.syncTypes = syncTypes
        self.profile = profile
        self.reconnect = reconnect ?? profile.rules.reconnect
        self.loginTimeoutMs = loginTimeoutMs
        self.keepAliveIntervalMs = keepAliveIntervalMs
        self.randomSeed = randomSeed
        self.transport = transport
    }

    /// How long a ping may wait for its `pong` before the connection counts as dropped
    /// (recoverable: the client reconnects): twice the keep-alive interval.
    public var pongTimeoutMs: Int64 {
        let (doubled, overflow) = keepAliveIntervalMs.multipliedReportingOverflow(by: 2)
        return overflow ? Int64.max : doubled
    }
}

/// Why ``ClientOptions`` were refused.
public enum ClientOptionsError: Error, Sendable, Equatable {
    /// The device description is invalid (extension info over 1024, empty UUID, …).
    case invalidDevice(DeviceDescriptionError)
    /// A data-sync type is listed twice.
    case repeatedSyncType(SyncType)
    /// A time interval is zero or negative.
    case nonPositiveInterval(field: String, Int64)
}
