import IMockCommon
import Foundation
import Testing
@testable import IMockNet
@testable import IMockServer
import IMockTestSupport

/// The dashboard's files over real loopback sockets: types, caching and security headers, the
/// links between them, and who may fetch them.
@Suite("Dashboard: page and assets")
struct DashboardServingTests {
    static let expectedTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml",
    ]

    @Test("the page is served at /_imock/ui and /_imock/ui/ without the secret, with the security headers")
    func page() async throws {
        let server = try InProcessServer()
        for path in ["/_imock/ui", "/_imock/ui/"] {
            let answer = try DashboardHTTP.get(port: server.port, path)
            #expect(answer.status == 200, "\(path)")
            #expect(answer.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(answer.headers["Cache-Control"] == "no-cache")
            #expect(answer.headers["Content-Security-Policy"] == Dashboard.contentSecurityPolicy)
            #expect(answer.headers["X-Content-Type-Options"] == "nosniff")
            #expect(answer.headers["X-Frame-Options"] == "DENY")
            #expect(answer.headers["Referrer-Policy"] == "no-referrer")
            #expect(answer.text.hasPrefix("<!doctype html>"))
            // A shell: no secret and no state in it.
            #expect(!answer.text.contains(InProcessServer.adminSecret))
            #expect(!answer.text.contains("imock#demo"))
        }
        await server.stop()
    }

    @Test("the policy forbids inline script and style, other origins and framing; the page has none inline")
    func strictPolicy() throws {
        let policy = Dashboard.contentSecurityPolicy
        for directive in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"] {
            #expect(policy.contains(directive))
        }
        #expect(!policy.contains("unsafe"))
        let html = Dashboard.page.body
        let text = String(decoding: html, as: UTF8.self)
        #expect(!text.contains("<script>"), "inline script")
        #expect(!text.contains("<style"), "inline style element")
        #expect(!text.contains("style=\""), "inline style attribute")
        #expect(captures(of: #"\son[a-z]+="#, in: text).isEmpty && !text.contains(" onclick="), "inline handler")
    }

    @Test("every asset is served with the type of its extension, an ETag, and 304 when current")
    func assets() async throws {
        let server = try InProcessServer()
        #expect(Dashboard.assets.count >= 8)
        for (name, asset) in Dashboard.assets {
            let path = "\(Dashboard.path)/\(name)"
            let answer = try DashboardHTTP.get(port: server.port, path)
            let ext = String(name.split(separator: ".").last ?? "")
            #expect(answer.status == 200, "\(path)")
            #expect(answer.headers["Content-Type"] == Self.expectedTypes[ext], "\(path)")
            #expect(answer.headers["Content-Security-Policy"] == Dashboard.contentSecurityPolicy, "\(path)")
            #expect(Array(answer.text.utf8) == asset.body, "\(path)")
            let etag = answer.headers["ETag"] ?? ""
            #expect(etag.hasPrefix("\""), "\(path)")
            let again = try DashboardHTTP.get(port: server.port, path, headers: [("If-None-Match", etag)])
            #expect(again.status == 304, "\(path)")
            #expect(again.text.isEmpty)
            let stale = try DashboardHTTP.get(port: server.port, path, headers: [("If-None-Match", #""0""#)])
            #expect(stale.status == 200, "\(path)")
        }
        await server.stop()
    }

    @Test("the page links and module imports reach every asset, and only assets")
    func linksResolve() {
        let html = String(decoding: Dashboard.page.body, as: UTF8.self)
        var reached: Set<String> = ["index.html"]
        var queue = captures(of: #"(?:src|href)="/_imock/ui/([^"]+)""#, in: html)
        while let name = queue.popLast() {
            guard reached.insert(name).inserted else { continue }
            let asset = Dashboard.assets[name]
            #expect(asset != nil, "the dashboard refers to \(name), which is not served")
            if let asset, name.hasSuffix(".js") {
                queue += captures(of: #"from '\./([^']+)'"#, in: String(decoding: asset.body, as: UTF8.self))
            }
        }
        #expect(reached == Set(Dashboard.assets.keys), "assets nothing refers to: \(Set(Dashboard.assets.keys).subtracting(reached))")
    }

    @Test("an unknown file gets 404 and a POST 405, both in the error envelope")
    func unknown() async throws {
        let server = try InProcessServer()
        let missing = try DashboardHTTP.get(port: server.port, "/_imock/ui/missing.js")
        #expect(missing.status == 404)
        #expect(missing.text.contains("\"error\":\"not_found\""))
        let post = try DashboardHTTP.send(port: server.port, "POST", "/_imock/ui")
        #expect(post.status == 405)
        await server.stop()
    }

    @Test("a client the control API would refuse gets 403 for the page; --control-remote serves it")
    func nonLoopback() throws {
        let clock = Timeline(mode: .virtual)
        let request = HTTPRequest(method: "GET", target: "/_imock/ui")
        for host in ["192.0.2.7", "2001:db8::7"] {
            let remote = HTTPRequestContext(
                connectionID: 1, peer: try SocketAddress.resolve(host: host, port: 40000), isSecure: false)
            let refused = Dashboard.respond(
                request, asset: Dashboard.page, context: remote,
                access: ControlAccess(secret: "s", allowRemote: false), clock: clock)
            guard case .respond(let answer) = refused else { Issue.record("not a plain answer"); return }
            #expect(answer.status == 403, "\(host)")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("loopback"))
            let allowed = Dashboard.respond(
                request, asset: Dashboard.page, context: remote,
                access: ControlAccess(secret: "s", allowRemote: true), clock: clock)
            guard case .respond(let served) = allowed else { Issue.record("not a plain answer"); return }
            #expect(served.status == 200, "\(host)")
        }
    }
}
