import IMockNet
import Testing

@Suite("HTTP header tokens")
struct HTTPHeaderTokenTests {
    @Test(
        "hasToken answers what tokens(for:).contains answers, without building the tokens",
        arguments: [
            [("Connection", "keep-alive, Upgrade")], [("connection", " upgrade ")], [("CONNECTION", "close,,\tUpgrade\t")],
            [("Connection", "")], [("Connection", ","), ("Connection", "UPGRADE")], [("Upgrade", "websocket")],
            [("Connection", "upgrades"), ("Connection", "up grade")], [("X-Connection", "upgrade")],
            [("Connection", "keep-alive")], [],
        ])
    func matchesTokens(fields: [(String, String)]) {
        let headers = HTTPHeaders(fields)
        for token in ["upgrade", "close", "keep-alive", "websocket", ""] {
            for name in ["Connection", "Upgrade"] {
                #expect(headers.hasToken(token, in: name) == headers.tokens(for: name).contains(token), "\(fields) \(name) \(token)")
            }
        }
    }
}
