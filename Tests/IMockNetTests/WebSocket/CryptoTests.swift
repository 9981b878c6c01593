import IMockCommon
import Testing

@testable import IMockNet

@Suite("Crypto helpers")
struct CryptoTests {
    @Test("SHA-1 of known inputs (FIPS 180 examples)")
    func sha1KnownAnswers() {
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest([UInt8]())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test("SecureRandom returns the requested count and varies")
    func secureRandom() {
        #expect(SecureRandom.bytes(count: 0) == [])
        #expect(SecureRandom.bytes(count: 16).count == 16)
        #expect(SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
    }

    @Test(
        "Base64 encodes the RFC 4648 test vectors",
        arguments: [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
        ])
    func base64Vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test("Base64 round-trips every byte value")
    func base64AllBytes() {
        let bytes = (0...255).map { UInt8($0) }
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
    }

    @Test(
        "Base64 rejects malformed text",
        arguments: ["Zg", "Zg=", "Z===", "====", "Zg==Zg==", "Zm9v\n", "Zm 9", "Zm9*", "Z=g="])
    func base64Rejects(text: String) {
        #expect(Base64.decode(text) == nil)
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
