/// Why a token could not be minted from a seed.
public enum TokenMintError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The seed itself is invalid.
    case seed(SeedError)
    /// No app was named and the seed has none or several.
    case appNotChosen([AppKey])
    /// The named app is not in the seed.
    case appNotFound(AppKey)
    /// The app has no `signingKey`: a server would draw a random key at load time, so no
    /// token minted offline could match it.
    case noSigningKey(AppKey)
    /// An app token was asked for an app without a `clientId` in the seed (a server would
    /// draw one, and app tokens name it).
    case noClientID(AppKey)
    /// The directory refused (unknown user, bad ttl…).
    case directory(DirectoryError)

    public var description: String {
        switch self {
        case .seed(let error): "the seed is invalid: \(error)"
        case .appNotChosen(let keys):
            keys.isEmpty ? "the seed has no app" : "the seed has several apps (\(keys.map(\.description).joined(separator: ", "))); choose one with --app"
        case .appNotFound(let key): "the seed has no app \(key)"
        case .noSigningKey(let key):
            "app \(key) has no signingKey in the seed: a server draws a random key at load, so an offline token cannot match; add a signingKey (imock's export writes one) or use --server"
        case .noClientID(let key):
            "app \(key) has no clientId in the seed: a server draws a random one at load, so an offline app token cannot match; add clientId and clientSecret or use --server"
        case .directory(.userNotFound(let name)): "the seed's app has no user \(name)"
        case .directory(.userNotActivated(let name)): "user \(name) is deactivated in the seed"
        case .directory(.invalidTTL(let ttl)): "ttl \(ttl) is out of range"
        case .directory(let error): "\(error)"
        }
    }
}

extension SeedDocument {
    /// Mints a token that a server loaded from this seed accepts: an app token (no `user`) or a
    /// user token for an existing user, issued at `nowMs` with `ttlSeconds` (nil: the app's
    /// default; 0: never expires). The token id continues from the seed's `nextTokenId`, so
    /// the server may later issue another token with the same id (revoking one by id revokes
    /// both).
    public func mintToken(app: AppKey?, user: String?, ttlSeconds: Int64?, nowMs: Int64) throws(TokenMintError) -> IssuedToken {
        let key: AppKey
        if let app {
            key = app
        } else {
            guard apps.count == 1 else { throw .appNotChosen(apps.map(\.appKey)) }
            key = apps[0].appKey
        }
        guard let seedApp = apps.first(where: { $0.appKey == key }) else { throw .appNotFound(key) }
        guard seedApp.signingKey != nil else { throw .noSigningKey(key) }
        guard user != nil || seedApp.clientID != nil else { throw .noClientID(key) }
        var directory: Directory
        do throws(SeedError) {
            // Password hashes are not checked here, so the cheapest settings do.
            directory = try makeDirectory(settings: DirectorySettings(passwordIterations: 1), nowMs: nowMs)
        } catch {
            throw .seed(error)
        }
        do throws(DirectoryError) {
            let loaded = try directory.app(key)
            if let user {
                return try directory.issueInheritedUserToken(
                    in: key, username: user, autoCreateUser: false, ttlSeconds: ttlSeconds, nowMs: nowMs
                ).token
            }
            return try directory.issueAppToken(
                in: key, clientID: loaded.clientID, clientSecret: loaded.clientSecret, ttlSeconds: ttlSeconds, nowMs: nowMs)
        } catch {
            throw .directory(error)
        }
    }
}
