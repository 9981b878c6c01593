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

    @Test("the secure random source returns the requested count and varies; a seeded one repeats")
    func randomSource() {
        #expect(RandomSource.secure.bytes(0) == [])
        #expect(RandomSource.secure.bytes(13).count == 13)
        #expect(RandomSource.secure.bytes(32) != RandomSource.secure.bytes(32))
        #expect(RandomSource(seed: 7).bytes(21) == RandomSource(seed: 7).bytes(21))
        #expect(RandomSource(seed: 7).uuidString() == RandomSource(seed: 7).uuidString())
        #expect(RandomSource(seed: 7).uuidString() != RandomSource(seed: 8).uuidString())
        let uuid = RandomSource.secure.uuidString()
        #expect(uuid.count == 36 && Array(uuid)[14] == "4" && "89ab".contains(Array(uuid)[19]))
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
