import COpenSSL
import IMockCommon

/// The few OpenSSL primitives the domain needs: HMAC-SHA256, PBKDF2 and a constant-time
/// comparison. (Randomness comes from the run's `RandomSource`.)
public enum Crypto {

    /// HMAC-SHA256 of `message` under `key` (32 bytes), RFC 2104 over SHA-256 digests.
    ///
    /// Written out over the SHA-256 fetched once (``SHA256Digest``): OpenSSL 3's one-shot
    /// `HMAC()` looks the MAC and the digest up by name on every call, which cost ten times
    /// the hashing itself for a token-sized message (docs/BENCHMARKS.md).
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? SHA256Digest.shared.digest(key, []) : key
        block.append(contentsOf: repeatElement(0, count: 64 - block.count))
        let inner = SHA256Digest.shared.digest(block.map { $0 ^ 0x36 }, message)
        return SHA256Digest.shared.digest(block.map { $0 ^ 0x5C }, inner)
    }

    /// PBKDF2-HMAC-SHA256 (`PKCS5_PBKDF2_HMAC`) of `password` with `salt`, 32-byte output.
    public static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        password.withUnsafeBufferPointer { passwordBuffer in
            salt.withUnsafeBufferPointer { saltBuffer in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    passwordBuffer.withMemoryRebound(to: CChar.self) { passwordChars in
                        _ = PKCS5_PBKDF2_HMAC(
                            passwordChars.baseAddress, Int32(passwordChars.count),
                            saltBuffer.baseAddress, Int32(saltBuffer.count), Int32(clamping: iterations),
                            EVP_sha256(), Int32(outBuffer.count), outBuffer.baseAddress)
                    }
                }
            }
        }
        return out
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

/// SHA-256, fetched once from OpenSSL's default provider (immutable and thread-safe once fetched).
final class SHA256Digest: @unchecked Sendable {
    static let shared = SHA256Digest()
    private let algorithm: OpaquePointer

    private init() {
        guard let algorithm = EVP_MD_fetch(nil, "SHA256", nil) else { preconditionFailure("OpenSSL has no SHA256") }
        self.algorithm = algorithm
    }

    /// SHA-256 of `first` followed by `second`.
    func digest(_ first: [UInt8], _ second: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        var length: UInt32 = 0
        _ = EVP_DigestInit_ex2(context, algorithm, nil)
        _ = first.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        _ = second.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        _ = out.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        return out
    }
}
