import IMockCommon
/// A salted PBKDF2-HMAC-SHA256 password hash; the plain password is never stored.
public struct PasswordHash: Sendable, Equatable {
    /// The PBKDF2 iteration count used for this hash.
    public let iterations: Int
    /// The random salt.
    public let salt: [UInt8]
    /// The derived key (PBKDF2 output, 32 bytes).
    public let digest: [UInt8]

    /// Default PBKDF2 iterations. Deliberately low: imock is a mock whose passwords are test
    /// fixtures, and a test registers 10,000 users, so hashing must cost well under a
    /// millisecond. A real service would use ≥ 600,000. Raise it with
    /// ``DirectorySettings/passwordIterations``.
    public static let defaultIterations = 1000

    /// Hashes `password` with a fresh 16-byte random salt from `random`.
    public init(hashing password: String, iterations: Int, random: RandomSource = .secure) {
        self = PasswordDerivation(password: password, iterations: iterations, random: random).derive()
    }

    /// Whether `password` matches, given its hash `derived` ahead with this hash's salt and
    /// iterations (``PasswordDerivation/init(password:checking:)``); without one (or with one
    /// made for another salt: the password changed meanwhile) it is derived here.
    public func verify(_ password: String, derived: PasswordHash?) -> Bool {
        guard let derived, derived.salt == salt, derived.iterations == iterations else { return verify(password) }
        return Crypto.constantTimeEquals(derived.digest, digest)
    }

    /// Whether `password` matches, compared in constant time (`CRYPTO_memcmp`).
    public func verify(_ password: String) -> Bool {
        let candidate = Crypto.pbkdf2SHA256(password: Array(password.utf8), salt: salt, iterations: iterations)
        return Crypto.constantTimeEquals(candidate, digest)
    }
}

/// What deriving one password's hash takes, with its salt already drawn: the salt comes from
/// the directory's random source on the loop's thread, and ``derive()`` — PBKDF2, the
/// expensive part — can then run on any thread (the server's `WorkerPool`).
public struct PasswordDerivation: Sendable, Equatable {
    /// The password to hash.
    public let password: String
    /// The 16-byte salt.
    public let salt: [UInt8]
    /// PBKDF2 iterations, at least 1.
    public let iterations: Int

    /// Draws a 16-byte salt from `random` for `password`.
    public init(password: String, iterations: Int, random: RandomSource) {
        self.password = password
        self.iterations = max(1, iterations)
        salt = random.bytes(16)
    }

    /// The derivation that checks `password` against `stored`: its salt and iterations.
    public init(password: String, checking stored: PasswordHash) {
        self.password = password
        iterations = stored.iterations
        salt = stored.salt
    }

    /// The hash (PBKDF2-HMAC-SHA256 of the password with the salt).
    public func derive() -> PasswordHash {
        PasswordHash(
            iterations: iterations, salt: salt,
            digest: Crypto.pbkdf2SHA256(password: Array(password.utf8), salt: salt, iterations: iterations))
    }
}
