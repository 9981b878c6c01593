/// The member names of the seed format, in the order ``SeedDocument/encoded()`` writes them.
enum SeedKeys {
    static let document = ["version", "apps"]
    static let app = [
        "appKey", "uuid", "registrationMode", "clientId", "clientSecret", "defaultTokenTTLSeconds",
        "serviceEnabled", "activeUserLimit", "restRateLimitPerSecond", "loginPolicy", "signingKey",
        "nextTokenId", "revokedTokenIds", "users",
    ]
    static let user = [
        "username", "uuid", "password", "passwordHash", "nickname", "activated", "created", "modified",
        "sequence", "minimumTokenId",
    ]
    static let passwordHash = ["algorithm", "iterations", "salt", "hash"]
    static let easemobLoginPolicy = ["vendor", "mode", "deviceLimits", "rule", "keepCurrentDevice"]
    static let openIMLoginPolicy = ["vendor", "policy"]
    /// `deviceLimits` starts with these, then `custom:N` in ascending N.
    static let deviceLimits = ["default", "mobile", "desktop", "web", "linux"]
}
