import IMockCommon
import Testing

@testable import IMockCore

@Suite struct JSONTests {
    @Test func encodesCompactInInsertionOrder() {
        let value: JSONValue = [
            "z": 1, "a": [true, false, nil], "s": "q\"\\/\n\u{01}é", "d": 1.5, "o": [:],
        ]
        #expect(value.encodedString == #"{"z":1,"a":[true,false,null],"s":"q\"\\/\n\u0001é","d":1.5,"o":{}}"#)
    }

    @Test func parsesWhatItEncodes() throws {
        let text = #"{"b":[1,-2,3.25,1e3,"x\u00e9\ud83d\ude00"],"a":{"k":null},"t":true}"#
        let value = try JSONValue.parse(text)
        #expect(value["b"] == [1, -2, 3.25, 1000.0, "xé😀"])
        #expect(value["a"]?["k"] == .null)
        #expect(value["t"]?.boolValue == true)
        #expect(try JSONValue.parse(value.encoded()) == value)
    }

    @Test func bigIntegersBecomeDoubles() throws {
        #expect(try JSONValue.parse("9223372036854775807") == .int(.max))
        #expect(try JSONValue.parse("9223372036854775808") == .double(9223372036854775808))
        #expect(try JSONValue.parse("-9223372036854775808") == .int(.min))
        #expect(try JSONValue.parse("-9223372036854775809") == .double(-9_223_372_036_854_775_808.0))
        #expect(try JSONValue.parse("-0") == .int(0))
    }

    @Test func integersAndStringsRoundTrip() throws {
        for value: Int64 in [0, 1, -1, 9, 10, 99, 100, -100, 1_767_225_600_000, .max, .min, .max - 1, .min + 1] {
            let text = JSONValue.int(value).encodedString
            #expect(text == String(value))
            #expect(try JSONValue.parse(text) == .int(value))
        }
        for string in ["", "plain ascii", "é and 😀", "tab\there", "quote\"", "back\\slash", "\u{1F}", "~\u{7F}"] {
            #expect(try JSONValue.parse(JSONValue.string(string).encodedString) == .string(string))
        }
    }

    @Test(arguments: [
        ("", JSONParseError.Reason.unexpectedEnd),
        ("{", .unexpectedEnd),
        ("{\"a\" 1}", .unexpectedCharacter),
        ("[1,]", .unexpectedCharacter),
        ("{\"a\":1,}", .unexpectedCharacter),
        ("01", .trailingData),
        ("1.", .invalidNumber),
        ("-", .unexpectedEnd),
        ("1e", .invalidNumber),
        ("tru", .unexpectedEnd),
        ("nul1", .unexpectedCharacter),
        ("\"a\\x\"", .invalidEscape),
        ("\"\\ud800\"", .invalidEscape),
        ("\"\\udc00\"", .invalidEscape),
        ("\"a\nb\"", .controlCharacterInString),
        ("{} x", .trailingData),
        ("// c\n{}", .unexpectedCharacter),
        ("'a'", .unexpectedCharacter),
    ])
    func rejectsBrokenJSON(text: String, reason: JSONParseError.Reason) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
        do {
            _ = try JSONValue.parse(text)
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONParseError(reason: .invalidUTF8, offset: 4)) { try JSONValue.parse([0x22, 0xFF, 0xFE, 0x22]) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError(reason: .tooDeep, offset: 64)) { try JSONValue.parse(deep) }
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect((try? JSONValue.parse(ok)) != nil)
    }
}

@Suite struct Base64URLTests {
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test func usesTheURLAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    }

    @Test(arguments: ["Zg==", "Z", "Zh", "Zm9v+", "Zm9v/", "Zm 9v", "Zm9vY"])
    func rejectsNonCanonical(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}

@Suite struct CryptoTests {
    @Test func hmacSHA256MatchesRFC4231Case2() {
        let mac = Crypto.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func hmacSHA256MatchesRFC4231Cases1And6() {
        // A 20-byte key, and a key longer than the 64-byte block (hashed first).
        let short = Crypto.hmacSHA256(key: [UInt8](repeating: 0x0B, count: 20), message: Array("Hi There".utf8))
        #expect(hex(short) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let long = Crypto.hmacSHA256(
            key: [UInt8](repeating: 0xAA, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(hex(long) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        // Exactly one block of key.
        let block = Crypto.hmacSHA256(key: [UInt8](repeating: 0x61, count: 64), message: [])
        #expect(block.count == 32 && block != Crypto.hmacSHA256(key: [UInt8](repeating: 0x61, count: 65), message: []))
    }

    @Test func pbkdf2MatchesKnownVector() {
        // RFC 7914 §11 PBKDF2-HMAC-SHA256 vector ("passwd", "salt", c = 1), first 32 bytes.
        let out = Crypto.pbkdf2SHA256(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1)
        #expect(hex(out) == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc")
    }

    @Test func uuidsAreVersion4() {
        let uuid = RandomSource.secure.uuidString()
        let parts = uuid.split(separator: "-").map(\.count)
        #expect(parts == [8, 4, 4, 4, 12])
        #expect(Array(uuid)[14] == "4")
        #expect("89ab".contains(Array(uuid)[19]))
        #expect(uuid != RandomSource.secure.uuidString())
    }

    func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
