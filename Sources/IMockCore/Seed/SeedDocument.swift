/// The seed / export format of imock (docs/SEED.md): apps with their settings and users with
/// their passwords. `imock serve --seed FILE` loads it, and the control API's export, reset and
/// checkpoints write and read it, so export → load → export reproduces the same bytes.
///
/// A value as written in the document: fields that the document may leave out and that are
/// generated at load time (uuids, credentials, signing key, times) are optional here; fields
/// with a fixed default hold that default after ``parse(bytes:)``.
public struct SeedDocument: Sendable, Equatable {
    /// The only format version this build reads and writes.
    public static let currentVersion: Int64 = 1

    /// The apps, in document order (``encoded()`` sorts them by key).
    public var apps: [SeedApp]

    /// Creates a document.
    public init(apps: [SeedApp] = []) {
        self.apps = apps
    }
}

/// One app of a seed document.
public struct SeedApp: Sendable, Equatable {
    /// `appKey`, required.
    public var appKey: AppKey
    /// `uuid` (the REST `application` field); nil = a random one at load time.
    public var uuid: String?
    /// `registrationMode`, `defaultTokenTTLSeconds`, `serviceEnabled`, `activeUserLimit`,
    /// `restRateLimitPerSecond` and `loginPolicy`; absent fields take ``AppSettings``'s defaults.
    public var settings: AppSettings
    /// `clientId`; nil = generated at load time like a new app's.
    public var clientID: String?
    /// `clientSecret`; nil = generated at load time like a new app's.
    public var clientSecret: String?
    /// `signingKey` (32 bytes, base64 in JSON); nil = a random key, so tokens issued before
    /// the load are refused after it.
    public var signingKey: [UInt8]?
    /// `nextTokenId`: the id the next issued token gets; nil = 1.
    public var nextTokenID: UInt64?
    /// `revokedTokenIds`: ids of individually revoked tokens; empty when absent.
    public var revokedTokenIDs: [UInt64]
    /// `users`, in document order; empty when absent.
    public var users: [SeedUser]

    /// Creates an app entry; everything but the key defaults as if absent from the document.
    public init(
        appKey: AppKey, uuid: String? = nil, settings: AppSettings = AppSettings(), clientID: String? = nil,
        clientSecret: String? = nil, signingKey: [UInt8]? = nil, nextTokenID: UInt64? = nil,
        revokedTokenIDs: [UInt64] = [], users: [SeedUser] = []
    ) {
        self.appKey = appKey
        self.uuid = uuid
        self.settings = settings
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.signingKey = signingKey
        self.nextTokenID = nextTokenID
        self.revokedTokenIDs = revokedTokenIDs
        self.users = users
    }
}

/// One user of a seed app.
public struct SeedUser: Sendable, Equatable {
    /// `username`, required; canonical (lower case) after ``SeedDocument/parse(bytes:)``.
    public var username: String
    /// `uuid`; nil = a random one at load time.
    public var uuid: String?
    /// `password` or `passwordHash`; nil = the user cannot log in with a password (like users
    /// auto-created by an `inherit` token grant).
    public var password: SeedPassword?
    /// `nickname`; nil when absent or null.
    public var nickname: String?
    /// `activated`; true when absent.
    public var activated: Bool
    /// `created`, epoch ms; nil = the load time.
    public var createdMs: Int64?
    /// `modified`, epoch ms; nil = `created`.
    public var modifiedMs: Int64?
    /// `sequence`: creation order within the app (user lists and their cursors follow it);
    /// nil = after every explicit sequence, in document order.
    public var sequence: Int64?
    /// `minimumTokenId`: this user's tokens with a lower id are refused; nil = the app's
    /// `nextTokenId` (as for a newly created user).
    public var minimumTokenID: UInt64?

    /// Creates a user entry; everything but the name defaults as if absent from the document.
    public init(
        username: String, uuid: String? = nil, password: SeedPassword? = nil, nickname: String? = nil,
        activated: Bool = true, createdMs: Int64? = nil, modifiedMs: Int64? = nil, sequence: Int64? = nil,
        minimumTokenID: UInt64? = nil
    ) {
        self.username = username
        self.uuid = uuid
        self.password = password
        self.nickname = nickname
        self.activated = activated
        self.createdMs = createdMs
        self.modifiedMs = modifiedMs
        self.sequence = sequence
        self.minimumTokenID = minimumTokenID
    }
}

/// A seeded user's password: plain text (hashed at load time) or an exported hash.
public enum SeedPassword: Sendable, Equatable {
    /// `"password": "…"`, 1–64 characters.
    case plain(String)
    /// `"passwordHash": {…}`.
    case hashed(SeedPasswordHash)
}

/// `"passwordHash": {"algorithm": "pbkdf2-sha256", "iterations": n, "salt": "…", "hash": "…"}`.
public struct SeedPasswordHash: Sendable, Equatable {
    /// The only algorithm: PBKDF2-HMAC-SHA256 with a 32-byte output.
    public static let algorithm = "pbkdf2-sha256"
    /// Most iterations accepted (each login pays them).
    public static let maximumIterations = 10_000_000
    /// Longest salt accepted, in bytes.
    public static let maximumSaltLength = 64
    /// The length of the derived hash in bytes.
    public static let hashLength = 32

    /// PBKDF2 iterations, 1 … ``maximumIterations``.
    public var iterations: Int
    /// The salt, 1 … ``maximumSaltLength`` bytes.
    public var salt: [UInt8]
    /// The derived key, ``hashLength`` bytes.
    public var hash: [UInt8]

    /// Creates a hash entry.
    public init(iterations: Int, salt: [UInt8], hash: [UInt8]) {
        self.iterations = iterations
        self.salt = salt
        self.hash = hash
    }
}
