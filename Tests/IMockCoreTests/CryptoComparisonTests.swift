import IMockCommon
import IMockCore
import Testing

/// The constant-time comparisons every secret and signature check uses (docs/SECURITY.md).
/// Their timing cannot be asserted in a test; what is checked is that they answer exactly as
/// `==` does, for every kind of difference, so a caller can rely on them.
@Suite struct CryptoComparisonTests {
    @Test func constantTimeEqualsAnswersLikeEquality() {
        #expect(Crypto.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!Crypto.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!Crypto.constantTimeEquals([0, 2, 3], [1, 2, 3]))
        #expect(!Crypto.constantTimeEquals([1, 2], [1, 2, 3]))
        #expect(!Crypto.constantTimeEquals([], [0]))
        #expect(Crypto.constantTimeEquals([], []))
    }

    @Test(arguments: [
        ("s3cret", "s3cret", true),
        ("s3cret", "s3creT", false),
        ("S3cret", "s3cret", false),
        ("s3cre", "s3cret", false),
        ("s3cret ", "s3cret", false),
        ("", "s3cret", false),
        ("", "", true),
        ("s3cret\u{0}", "s3cret", false),
        ("é", "e\u{301}", false),
    ])
    func secretsEqualAnswersLikeByteEquality(_ presented: String, _ expected: String, _ equal: Bool) {
        #expect(Crypto.secretsEqual(presented, expected) == equal)
        #expect(Crypto.secretsEqual(Array(presented.utf8), Array(expected.utf8)) == equal)
    }

    @Test func secretsEqualOnRandomPairsAndLongSecrets() {
        let random = RandomSource(seed: 14)
        for length in [1, 31, 32, 63, 64, 65, 1000] {
            let secret = random.bytes(length)
            #expect(Crypto.secretsEqual(secret, secret))
            for position in [0, length / 2, length - 1] {
                var other = secret
                other[position] ^= 0x01
                #expect(!Crypto.secretsEqual(other, secret))
            }
            #expect(!Crypto.secretsEqual(secret + [0], secret))
            #expect(!Crypto.secretsEqual(Array(secret.dropLast()), secret))
        }
    }

    @Test func passwordHashesAndTokenMACsUseTheComparison() throws {
        let hash = PasswordHash(hashing: "pw", iterations: 1, random: RandomSource(seed: 1))
        #expect(hash.verify("pw"))
        #expect(!hash.verify("pW"))
        #expect(!hash.verify(""))
        let key = [UInt8](repeating: 7, count: 32)
        let mac = Crypto.hmacSHA256(key: key, message: [1, 2, 3])
        #expect(TokenCodec.verifyMAC(signedBytes: [1, 2, 3], mac: mac, signingKey: key))
        var flipped = mac
        flipped[31] ^= 0x80
        #expect(!TokenCodec.verifyMAC(signedBytes: [1, 2, 3], mac: flipped, signingKey: key))
        #expect(!TokenCodec.verifyMAC(signedBytes: [1, 2, 3], mac: Array(mac.prefix(31)), signingKey: key))
    }
}
