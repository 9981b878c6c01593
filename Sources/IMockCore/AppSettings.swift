/// How users may be registered over REST (reference easemob.md §5).
public enum RegistrationMode: String, Sendable, Equatable, CaseIterable {
    /// `POST /users` works without a token.
    case open
    /// `POST /users` needs an app token (the recommended, default mode).
    case authorized
}

/// The adjustable settings of an app.
public struct AppSettings: Sendable, Equatable {
    /// Open or authorized registration.
    public var registrationMode: RegistrationMode
    /// Token lifetime in seconds when a token request has no `ttl`; 0 = never expires.
    public var defaultTokenTTLSeconds: Int64
    /// Whether the app's service is enabled (a disabled app refuses logins with 305 later).
    public var serviceEnabled: Bool
    /// Daily/monthly active user limit, nil = unlimited (enforced at login, later).
    public var activeUserLimit: Int?
    /// REST requests per second for this app, nil = unlimited; over it → 429 `reach_limit`.
    public var restRateLimitPerSecond: Int?
    /// The multi-device login policy: what a new login does to the user's other devices.
    /// Valid by construction (``EasemobDeviceLimits`` refuses bad limits when built).
    public var loginPolicy: LoginPolicy

    /// Seven days: Easemob's console default for token lifetime is configurable; a mock needs
    /// a finite, generous default.
    public static let defaultTokenTTL: Int64 = 7 * 24 * 3600

    /// Creates settings; the defaults are authorized mode, 7-day tokens, enabled, no limits, and
    /// Easemob's default login policy (multi-device, 4 per group, keep-current-device off).
    public init(
        registrationMode: RegistrationMode = .authorized,
        defaultTokenTTLSeconds: Int64 = AppSettings.defaultTokenTTL,
        serviceEnabled: Bool = true,
        activeUserLimit: Int? = nil,
        restRateLimitPerSecond: Int? = nil,
        loginPolicy: LoginPolicy = .easemobDefault
    ) {
        self.registrationMode = registrationMode
        self.defaultTokenTTLSeconds = defaultTokenTTLSeconds
        self.serviceEnabled = serviceEnabled
        self.activeUserLimit = activeUserLimit
        self.restRateLimitPerSecond = restRateLimitPerSecond
        self.loginPolicy = loginPolicy
    }
}
