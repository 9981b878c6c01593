import COpenSSL
import COpenSSLSHA256
import IMockCommon

/// The few OpenSSL primitives the domain needs: HMAC-SHA256, PBKDF2 and a constant-time
/// comparison. (Randomness comes from the run's `RandomSource`.)
public enum Crypto {

    /// HMAC-SHA256 of `message` under `key` (32 bytes), RFC 2104.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let keyed = HMACSHA256Key(key)
        return [UInt8](unsafeUninitializedCapacity: 32) { out, count in
            message.withUnsafeBytes { keyed.authenticate($0, into: out.baseAddress!) }
            count = 32
        }
    }

    /// PBKDF2-HMAC-SHA256 (RFC 8018) of `password` with `salt`, 32-byte output — the same bytes
    /// as OpenSSL's `PKCS5_PBKDF2_HMAC`, which the tests check, at less than half its cost: the
    /// password's HMAC states are computed once and copied per iteration as plain structs.
    public static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        let keyed = HMACSHA256Key(password)
        var result = [UInt8](repeating: 0, count: 32)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { block in
            let u = block.baseAddress!
            // U1 = PRF(password, salt || INT(1)); one 32-byte block is all a 32-byte output needs.
            (salt + [0, 0, 0, 1]).withUnsafeBytes { keyed.authenticate($0, into: u) }
            result.withUnsafeMutableBufferPointer { t in
                for index in 0..<32 { t[index] = u[index] }
                for _ in 1..<max(1, iterations) {
                    keyed.authenticate(UnsafeRawBufferPointer(start: u, count: 32), into: u)
                    for index in 0..<32 { t[index] ^= u[index] }
                }
            }
        }
        return result
    }

    /// Compares two byte strings of public length — MACs, password digests — in time that
    /// depends only on their length, never on where they differ (`CRYPTO_memcmp`). Strings of
    /// different lengths are unequal at once: use it where the length tells nothing (a MAC is
    /// always 32 bytes); compare secrets of any length with ``secretsEqual(_:_:)``.
    public static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard !lhs.isEmpty else { return true }
        return lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }

    /// Whether a presented secret (an admin secret, a client secret) is the expected one, in
    /// time that tells neither where they differ nor how long the expected one is: both are
    /// MACed under a key drawn once per process and the 32-byte digests compared with
    /// ``constantTimeEquals(_:_:)``. (Hashing takes time per 64-byte block of input, so only the
    /// presented length, which the caller knows anyway, and the secret's block count show.)
    /// Every comparison of a secret in imock goes through here (docs/SECURITY.md).
    public static func secretsEqual(_ presented: String, _ expected: String) -> Bool {
        secretsEqual(Array(presented.utf8), Array(expected.utf8))
    }

    /// ``secretsEqual(_:_:)`` for bytes.
    public static func secretsEqual(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        constantTimeEquals(
            hmacSHA256(key: comparisonKey, message: presented), hmacSHA256(key: comparisonKey, message: expected))
    }

    /// The key of ``secretsEqual(_:_:)``: random, never shown, the same for the process's life.
    private static let comparisonKey = RandomSource.secure.bytes(32)
}

/// An HMAC-SHA256 key with its inner and outer SHA-256 states computed once (RFC 2104): a MAC
/// then costs the message's blocks and two more, with no allocation. OpenSSL's EVP digests
/// allocate a context per copy and its one-shot `HMAC()` looks the algorithms up by name per
/// call, which cost more than the hashing for token-sized messages (docs/BENCHMARKS.md).
struct HMACSHA256Key {
    private var inner = SHA256_CTX()
    private var outer = SHA256_CTX()

    init(_ key: [UInt8]) {
        var block = key.count > 64 ? HMACSHA256Key.sha256(key) : key
        block.append(contentsOf: repeatElement(0, count: 64 - block.count))
        SHA256_Init(&inner)
        SHA256_Init(&outer)
        block.map { $0 ^ 0x36 }.withUnsafeBytes { _ = SHA256_Update(&inner, $0.baseAddress, 64) }
        block.map { $0 ^ 0x5C }.withUnsafeBytes { _ = SHA256_Update(&outer, $0.baseAddress, 64) }
    }

    /// Writes the 32-byte MAC of `message` to `out`; `out` may be where `message` is.
    func authenticate(_ message: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) {
        var context = inner
        SHA256_Update(&context, message.baseAddress, message.count)
        SHA256_Final(out, &context)
        context = outer
        SHA256_Update(&context, out, 32)
        SHA256_Final(out, &context)
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var context = SHA256_CTX()
        SHA256_Init(&context)
        bytes.withUnsafeBytes { _ = SHA256_Update(&context, $0.baseAddress, $0.count) }
        return [UInt8](unsafeUninitializedCapacity: 32) { out, count in
            SHA256_Final(out.baseAddress, &context)
            count = 32
        }
    }
}
