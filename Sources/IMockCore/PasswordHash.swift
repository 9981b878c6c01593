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
        self.iterations = max(1, iterations)
        salt = random.bytes(16)
        digest = Crypto.pbkdf2SHA256(password: Array(password.utf8), salt: salt, iterations: self.iterations)
    }

    /// Whether `password` matches, compared in constant time (`CRYPTO_memcmp`).
    public func verify(_ password: String) -> Bool {
        let candidate = Crypto.pbkdf2SHA256(password: Array(password.utf8), salt: salt, iterations: iterations)
        return Crypto.constantTimeEquals(candidate, digest)
    }
}
