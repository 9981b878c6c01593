import IMockCore

/// The login a client's PROVISION asks for, in the engine's words.
///
/// - app key and user: `MSync.guid` (`appKey`, `name`);
/// - token: `MSync.auth` (`$t$<token>`) and `Provision.authToken` (`{"token":"$t$<token>"}`);
///   either may be absent, but when both are given they must agree (otherwise the login is
///   made with no token, and refused as an invalid token);
/// - device: `osType` (+ `osCustomValue`), `deviceName`, `deviceUuid` (else the resource),
///   `resource` (kept: the reply echoes it), `reason` = the login extension
///   (`loginInfoCustomExt`); `isManualLogin: false` marks an automatic login.
///
/// The Web SDK renews its token over REST, so every msync login asks for that.
public enum MsyncProvision {
    /// The `$t$` prefix the SDKs put before the token.
    public static let tokenPrefix = "$t$"

    /// The login request, or the reason the PROVISION cannot be one.
    public static func loginRequest(
        envelope: MsyncPB.MSync, provision: MsyncPB.Provision
    ) -> Result<LoginRequest, SessionError> {
        let platform: DevicePlatform
        do {
            let osType = Int(provision.osType?.rawValue ?? MsyncPB.Provision.OsType.other.rawValue)
            platform = .easemob(
                try EasemobPlatform(provisionOSType: osType, customValue: provision.osCustomValue.map { Int($0) }))
        } catch {
            return .failure(.invalidDevice)
        }
        let resource = provision.resource.flatMap { $0.isEmpty ? nil : $0 }
        let uuid = provision.deviceUuid.flatMap { $0.isEmpty ? nil : $0 } ?? resource ?? ""
        let device = DeviceDescription(
            platform: platform, name: provision.deviceName ?? "", uuid: uuid, resource: resource,
            extensionInfo: provision.reason ?? "")
        return .success(
            LoginRequest(
                appKey: envelope.guid?.appKey ?? "", user: envelope.guid?.name ?? "",
                token: token(auth: envelope.auth, authToken: provision.authToken), device: device,
                autoLogin: provision.isManualLogin == false, renewsTokenOverREST: true,
                tokenWarningDelayMs: LoginRequest.heartbeatWarningDelayMs))
    }

    /// The token of the two places that carry it; empty when they disagree or neither does.
    public static func token(auth: String?, authToken: String?) -> String {
        let fromAuth = auth.map(stripped)
        let fromJSON = authToken.flatMap { (try? JSONValue.parse(Array($0.utf8)))?["token"]?.stringValue }.map(stripped)
        switch (fromAuth, fromJSON) {
        case (let a?, let b?): return a == b ? a : ""
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (nil, nil): return ""
        }
    }

    private static func stripped(_ token: String) -> String {
        token.hasPrefix(tokenPrefix) ? String(token.dropFirst(tokenPrefix.count)) : token
    }

    /// The `authToken` of a PROVISION reply: `{"expires_in":<absolute epoch ms>}`.
    public static func replyAuthToken(expiresAt: Int64) -> String {
        JSONValue.object([("expires_in", .int(expiresAt))]).encodedString
    }

    /// The absolute expiry in a reply's `authToken`, if any.
    public static func expiresAt(replyAuthToken: String?) -> Int64? {
        replyAuthToken.flatMap { (try? JSONValue.parse(Array($0.utf8)))?["expires_in"]?.intValue }
    }
}
