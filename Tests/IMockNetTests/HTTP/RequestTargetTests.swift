import Testing
@testable import IMockNet

/// `HTTPRequest`'s reading of its target: the decoded path and query parameters.
@Suite("Request target")
struct RequestTargetTests {
    private func parts(_ target: String) -> (path: String, query: [String]) {
        let request = HTTPRequest(method: "GET", target: target)
        return (request.path, request.query.map { "\($0.name)=\($0.value)" })
    }

    @Test("parts without escapes are taken as they are, escapes and + decoded where they are")
    func decoding() {
        #expect(parts("/openim/bench/im?sendID=u1&token=a.b-c_d~e&platformID=1").path == "/openim/bench/im")
        #expect(parts("/openim/bench/im?sendID=u1&token=a.b-c_d~e&platformID=1").query == ["sendID=u1", "token=a.b-c_d~e", "platformID=1"])
        #expect(parts("/a%20b/c+d?q=a+b&r=%E4%BD%A0%2B").path == "/a b/c+d")
        #expect(parts("/a%20b/c+d?q=a+b&r=%E4%BD%A0%2B").query == ["q=a b", "r=你+"])
    }

    @Test("empty pairs are skipped; a name without = has an empty value; a value may hold =")
    func pairs() {
        #expect(parts("/p?&&a&=v&b=c=d&").query == ["a=", "=v", "b=c=d"])
        #expect(parts("/p?").query.isEmpty)
        #expect(parts("/p").query.isEmpty)
    }

    @Test("a malformed escape or one that decodes to invalid UTF-8 leaves the part as sent")
    func malformed() {
        #expect(parts("/p%2?x=%zz&y=%FF").path == "/p%2")
        #expect(parts("/p%2?x=%zz&y=%FF").query == ["x=%zz", "y=%FF"])
    }
}
