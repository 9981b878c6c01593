import COpenSSL
import IMockCommon

/// The few OpenSSL primitives the domain needs: HMAC-SHA256, PBKDF2 and a constant-time
/// comparison. (Randomness comes from the run's `RandomSource`.)
public enum Crypto {

    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        key.withUnsafeBufferPointer { keyBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    _ = HMAC(
                        EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count),
                        messageBuffer.baseAddress, messageBuffer.count, outBuffer.baseAddress, &length)
                }
            }
        }
        return out
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
