import COpenSSL
import IMockCommon
import IMockCore
import Testing

/// imock's HMAC-SHA256 and PBKDF2 (over SHA-256 states computed once per key) against
/// OpenSSL's own `HMAC()` and `PKCS5_PBKDF2_HMAC` on the same inputs.
@Suite("HMAC and PBKDF2 against OpenSSL")
struct CryptoReferenceTests {
    static func opensslPBKDF2(_ password: [UInt8], _ salt: [UInt8], _ iterations: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        password.withUnsafeBytes { passwordBytes in
            salt.withUnsafeBytes { saltBytes in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    _ = PKCS5_PBKDF2_HMAC(
                        passwordBytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(passwordBytes.count),
                        saltBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(saltBytes.count),
                        Int32(iterations), EVP_sha256(), 32, outBuffer.baseAddress)
                }
            }
        }
        return out
    }

    static func opensslHMAC(_ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    _ = HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                        messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count,
                        outBuffer.baseAddress, &length)
                }
            }
        }
        return out
    }

    /// Passwords and keys around the 64-byte block (hashed first above it), salts and messages
    /// of several lengths, empty ones included.
    static let lengths = [0, 1, 5, 31, 32, 55, 56, 63, 64, 65, 100, 200]

    @Test("PBKDF2: the same 32 bytes as PKCS5_PBKDF2_HMAC for every password and salt length, 1 to 1000 iterations")
    func pbkdf2() {
        let random = RandomSource(seed: 11)
        for passwordLength in Self.lengths {
            for saltLength in [0, 4, 16, 64, 65] {
                for iterations in [1, 2, 3, 1000] {
                    let password = random.bytes(passwordLength)
                    let salt = random.bytes(saltLength)
                    #expect(
                        Crypto.pbkdf2SHA256(password: password, salt: salt, iterations: iterations)
                            == Self.opensslPBKDF2(password, salt, iterations),
                        "password \(passwordLength) B, salt \(saltLength) B, \(iterations) iterations")
                }
            }
        }
    }

    @Test("HMAC-SHA256: the same MAC as OpenSSL's HMAC() for every key and message length")
    func hmac() {
        let random = RandomSource(seed: 12)
        for keyLength in Self.lengths {
            for messageLength in Self.lengths + [1000, 4096] {
                let key = random.bytes(keyLength)
                let message = random.bytes(messageLength)
                #expect(
                    Crypto.hmacSHA256(key: key, message: message) == Self.opensslHMAC(key, message),
                    "key \(keyLength) B, message \(messageLength) B")
            }
        }
    }
}
