import IMockCommon
import IMockCore

/// The apps and users a server under test starts with, and the tokens the devices use.
///
/// The bench knows each app's signing key, so it mints the user tokens itself (the server's
/// format: `YWMt` + claims + HMAC-SHA256, docs/SEED.md § Tokens) instead of asking the server
/// for ten thousand of them; imock gets the world as a seed file, the Python baseline as the
/// same facts in its own small config.
struct BenchWorld: Sendable {
    /// One app of the world.
    struct AppSpec: Sendable {
        /// `org#app`.
        var key: String
        /// Easemob devices per platform group (4 is Easemob's default).
        var deviceLimit: Int
        /// The usernames, all with tokens.
        var users: [String]
        var clientID: String
        var clientSecret: String
        var signingKey: [UInt8]
        /// Easemob's multi-device policy with `deviceLimit`, or OpenIM's policy 0 (no kick).
        var vendor: BenchVendor
    }

    var apps: [AppSpec]
    /// When the tokens were issued (epoch ms); they last a week.
    let issuedAtMs: Int64

    /// A world of `apps`, each given as (key, device limit, users), their login policies of
    /// `vendor`.
    init(
        apps: [(key: String, deviceLimit: Int, users: [String])], vendor: BenchVendor = .easemob,
        random: RandomSource = .secure
    ) {
        issuedAtMs = SystemClock().nowMs
        self.apps = apps.map { app in
            AppSpec(
                key: app.key, deviceLimit: app.deviceLimit, users: app.users,
                clientID: "YXA6bench" + Base64URL.encode(random.bytes(9)),
                clientSecret: "YXA6bench" + Base64URL.encode(random.bytes(18)), signingKey: random.bytes(32),
                vendor: vendor)
        }
    }

    /// `count` usernames `u1`, `u2` …
    static func users(_ count: Int, prefix: String = "u") -> [String] {
        (0..<count).map { "\(prefix)\($0 + 1)" }
    }

    /// The app named `key`.
    func app(_ key: String) -> AppSpec {
        guard let app = apps.first(where: { $0.key == key }) else { preconditionFailure("no bench app \(key)") }
        return app
    }

    static let tokenLifetimeMs: Int64 = 7 * 24 * 3_600_000

    /// The user tokens of `app`, in the order of its users (token ids 1, 2 …).
    func tokens(of key: String) -> [String] {
        let app = app(key)
        guard let appKey = try? AppKey(parsing: app.key) else { return [] }
        return app.users.enumerated().map { index, user in
            let claims = TokenClaims(
                appKey: appKey, subject: user, kind: .user, issuedAtMs: issuedAtMs,
                expiresAtMs: issuedAtMs + Self.tokenLifetimeMs, tokenID: UInt64(index + 1))
            return TokenCodec.encode(claims, signingKey: app.signingKey)
        }
    }

    /// The imock seed document (docs/SEED.md): authorized registration, no REST rate limit.
    var imockSeed: JSONValue {
        .object([
            ("version", 1),
            (
                "apps",
                .array(
                    apps.map { app in
                        .object([
                            ("appKey", .string(app.key)),
                            ("registrationMode", "authorized"),
                            ("clientId", .string(app.clientID)),
                            ("clientSecret", .string(app.clientSecret)),
                            ("restRateLimitPerSecond", .null),
                            ("loginPolicy", app.loginPolicy),
                            ("signingKey", .string(Base64.encode(app.signingKey))),
                            ("nextTokenId", .int(Int64(app.users.count + 1))),
                            ("users", .array(app.users.map { .object([("username", .string($0)), ("minimumTokenId", 1)]) })),
                        ])
                    })
            ),
        ])
    }

    /// The Python baseline's configuration: the same apps, keys and users.
    var pythonConfig: JSONValue {
        .object([
            (
                "apps",
                .array(
                    apps.map { app in
                        .object([
                            ("appKey", .string(app.key)),
                            ("clientId", .string(app.clientID)),
                            ("clientSecret", .string(app.clientSecret)),
                            ("signingKey", .string(Base64.encode(app.signingKey))),
                            ("deviceLimit", .int(Int64(app.deviceLimit))),
                            ("users", .array(app.users.map { .string($0) })),
                        ])
                    })
            )
        ])
    }
}

extension BenchWorld.AppSpec {
    /// The seed's `loginPolicy` (docs/SEED.md § Login policy).
    var loginPolicy: JSONValue {
        switch vendor {
        case .easemob: ["vendor": "easemob", "deviceLimits": ["default": .int(Int64(deviceLimit))]]
        case .openIM: ["vendor": "openim", "policy": 0]
        }
    }
}
