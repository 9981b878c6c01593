import COpenSSL

/// The few OpenSSL primitives the domain needs: randomness, HMAC-SHA256, PBKDF2 and a
/// constant-time comparison.
public enum Crypto {
    /// `count` bytes from OpenSSL's CSPRNG (`RAND_bytes`).
    ///
    /// `RAND_bytes` fails only when the generator cannot be seeded, which on Linux means a
    /// broken system; there is no sensible recovery, so that one case traps.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        let result = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(result == 1, "RAND_bytes failed: the system random generator is unusable")
        return bytes
    }

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

    /// Compares two byte strings in time that depends only on their length (`CRYPTO_memcmp`).
    public static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard !lhs.isEmpty else { return true }
        return lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }

    /// A random version-4 UUID in lower-case 8-4-4-4-12 form.
    public static func randomUUIDString() -> String {
        var bytes = randomBytes(16)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { byte -> String in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
    }
}
