import Foundation
import Testing
@testable import IMockServer
import IMockTestSupport

/// The dashboard cannot call a dead endpoint: every control-API path its scripts name is read
/// from the scripts and checked against the server's route table and a live server.
@Suite("Dashboard: the control-API calls of its scripts")
struct DashboardEndpointTests {
    struct Endpoint: Hashable, CustomStringConvertible {
        var method: String
        var pattern: String
        var description: String { "\(method) \(pattern)" }
    }

    /// The `ENDPOINTS` table of api.js.
    static let endpoints: [Endpoint] = {
        let text = script("api.js")
        let pattern = #"\['(GET|POST|DELETE|PUT|PATCH)', '(/_imock/[^']*)'\]"#
        guard let regex = try? Regex(pattern) else { return [] }
        return text.matches(of: regex).compactMap { match in
            guard let method = match.output[1].substring, let path = match.output[2].substring else { return nil }
            return Endpoint(method: String(method), pattern: String(path))
        }
    }()

    static func script(_ name: String) -> String {
        String(decoding: Dashboard.assets[name]?.body ?? [], as: UTF8.self)
    }

    static var scripts: [String] { Dashboard.assets.keys.filter { $0.hasSuffix(".js") }.sorted() }

    @Test("the scripts name control-API paths only in the ENDPOINTS table")
    func oneTable() {
        #expect(Self.endpoints.count >= 15)
        var quoted: [String] = []
        for name in Self.scripts {
            quoted += captures(of: #"['"`](/_imock/[^'"`]*)['"`]"#, in: Self.script(name))
        }
        #expect(quoted.sorted() == Self.endpoints.map(\.pattern).sorted())
    }

    @Test("each endpoint is a route of the server (the control API's table, or health)")
    func inRouteTable() {
        let routes = Set(ControlAPI.routes.map { Endpoint(method: $0.method, pattern: $0.pattern) })
            .union([Endpoint(method: "GET", pattern: "/_imock/health")])
        for endpoint in Self.endpoints {
            #expect(routes.contains(endpoint), "the dashboard calls \(endpoint), which the server does not route")
        }
    }

    @Test("each endpoint answers a live server: 401 without the secret (health: 200), never 404 or 405")
    func liveServer() async throws {
        let server = try InProcessServer()
        for endpoint in Self.endpoints {
            let path = endpoint.pattern.replacing("{org}", with: "imock").replacing("{app}", with: "demo")
                .replacing("{id}", with: "1")
            #expect(!path.contains("{"), "unfilled placeholder in \(endpoint)")
            let answer = try DashboardHTTP.send(port: server.port, endpoint.method, path)
            let expected = endpoint.pattern == "/_imock/health" ? 200 : 401
            #expect(answer.status == expected, "\(endpoint) answered \(answer.status): \(answer.text)")
        }
        await server.stop()
    }

    @Test("the kick-code choices are the documented codes, each one the kick endpoint accepts")
    func kickCodes() {
        let options = Self.options(of: "kick-code").compactMap(Int64.init)
        #expect(Set(options) == [8, 104, 108, 202, 206, 207, 213, 214, 216, 217, 220, 305, 2002])
        #expect(options.allSatisfy { KickControl.codes.contains($0) })
    }

    @Test("each token-state filter is accepted by the tokens endpoint; advance amounts are positive")
    func filters() async throws {
        let server = try InProcessServer()
        let states = Self.options(of: "token-state")
        #expect(states.sorted() == ["", "expired", "kicked", "live", "revoked"])
        for state in states {
            let path = "/_imock/apps/imock/demo/tokens" + (state.isEmpty ? "" : "?state=\(state)")
            let answer = try DashboardHTTP.get(
                port: server.port, path, headers: [("Authorization", "Bearer \(InProcessServer.adminSecret)")])
            #expect(answer.status == 200, "\(path): \(answer.text)")
        }
        let amounts = Self.options(of: "advance-amount")
        #expect(!amounts.isEmpty && amounts.allSatisfy { (Int64($0) ?? 0) > 0 })
        await server.stop()
    }

    @Test("every element the scripts look up by id is in the page")
    func elementIDs() {
        let html = String(decoding: Dashboard.page.body, as: UTF8.self)
        let ids = Set(captures(of: #"\sid="([^"]+)""#, in: html))
        for name in Self.scripts {
            for id in captures(of: #"(?:byId|getElementById)\('([^']+)'\)"#, in: Self.script(name)) {
                #expect(ids.contains(id), "\(name) looks up #\(id), which the page does not have")
            }
        }
    }

    /// The option values of the `<select id="…">` in the page.
    static func options(of select: String) -> [String] {
        let html = String(decoding: Dashboard.page.body, as: UTF8.self)
        guard let start = html.range(of: "<select id=\"\(select)\">"),
            let end = html.range(of: "</select>", range: start.upperBound..<html.endIndex)
        else { return [] }
        return captures(of: #"<option value="([^"]*)""#, in: String(html[start.upperBound..<end.lowerBound]))
    }
}
