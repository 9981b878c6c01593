import IMockCommon
import Testing

/// `PercentEncoding`: RFC 3986 escapes for URL parts and file names.
@Suite("Percent encoding")
struct PercentEncodingTests {
    @Test("unreserved bytes are kept, every other UTF-8 byte becomes %XX in upper-case hex")
    func encode() {
        #expect(PercentEncoding.encode("aZ09-_.~") == "aZ09-_.~")
        #expect(PercentEncoding.encode("a b/c#d?e&f=g+h") == "a%20b%2Fc%23d%3Fe%26f%3Dg%2Bh")
        #expect(PercentEncoding.encode("你\u{0}") == "%E4%BD%A0%00")
        #expect(PercentEncoding.encode("x#y".split(separator: "#")[1]) == "y")
        #expect(PercentEncoding.encode("a.b", keeping: PercentEncoding.isAlphanumeric) == "a%2Eb")
    }

    @Test("append writes the same bytes after what the buffer holds, and says whether it escaped")
    func append() {
        var out = Array("k=".utf8)
        #expect(PercentEncoding.append("plain", to: &out) == false)
        #expect(PercentEncoding.append("a b", to: &out) == true)
        #expect(String(decoding: out, as: UTF8.self) == "k=plaina%20b")
    }
}
