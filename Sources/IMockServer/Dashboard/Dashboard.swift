import IMockCommon
import IMockNet

/// The web dashboard at `/_imock/ui` (docs/DASHBOARD.md): a page shell and its assets, embedded
/// in the binary and served without the admin secret because they hold no data. The browser
/// asks for the secret and sends it as `Authorization: Bearer` on every control-API call it
/// makes with `fetch`; the page and assets follow the control API's network rule (loopback
/// only unless `--control-remote`).
enum Dashboard {
    /// Where the page lives.
    static let path = "/_imock/ui"

    /// The page shell, answered at `path` (and `path/`).
    static let page = DashboardAsset(name: "index.html", contentType: "text/html; charset=utf-8", text: DashboardHTML.text)

    /// Every file under `path/`, by name.
    static let assets: [String: DashboardAsset] = Dictionary(
        uniqueKeysWithValues: [
            page,
            DashboardAsset(name: "style.css", contentType: "text/css; charset=utf-8", text: DashboardCSS.text),
            DashboardAsset(name: "icon.svg", contentType: "image/svg+xml", text: DashboardIcon.text),
            DashboardAsset(name: "app.js", contentType: javaScript, text: DashboardAppScript.text),
            DashboardAsset(name: "api.js", contentType: javaScript, text: DashboardAPIScript.text),
            DashboardAsset(name: "dom.js", contentType: javaScript, text: DashboardDOMScript.text),
            DashboardAsset(name: "stream.js", contentType: javaScript, text: DashboardStreamScript.text),
            DashboardAsset(name: "views.js", contentType: javaScript, text: DashboardViewsScript.text),
            DashboardAsset(name: "actions.js", contentType: javaScript, text: DashboardActionsScript.text),
        ].map { ($0.name, $0) })

    private static let javaScript = "text/javascript; charset=utf-8"

    /// No inline script or style, nothing from another origin, no framing, no form posts: the
    /// page can only run its own files and talk to the server it came from.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The routes `MockServer` installs: the page and each asset, GET (and so HEAD).
    static func routes(access: ControlAccess, clock: Timeline) -> [(pattern: String, handler: MockServer.Route)] {
        [
            (path, { request, _, context in respond(request, asset: page, context: context, access: access, clock: clock) }),
            (path + "/{asset}", { request, parameters, context in
                respond(request, asset: assets[parameters["asset"] ?? ""], context: context, access: access, clock: clock)
            }),
        ]
    }

    /// The answer for `asset` (nil: not a dashboard file): 403 to a client the control API
    /// would refuse, 404 for an unknown file, 304 when the client's copy is current, else the
    /// file.
    static func respond(
        _ request: HTTPRequest, asset: DashboardAsset?, context: HTTPRequestContext, access: ControlAccess,
        clock: Timeline
    ) -> HTTPServerResponse {
        do throws(ControlError) {
            try access.checkPage(context: context)
            guard let asset else { throw .notFound("no dashboard file \(request.path)") }
            return .respond(response(asset, ifNoneMatch: request.headers["If-None-Match"]))
        } catch {
            return .respond(error.response(nowMs: clock.nowMs))
        }
    }

    /// The file with its type, validator and the security headers.
    static func response(_ asset: DashboardAsset, ifNoneMatch: String?) -> HTTPResponse {
        var headers = HTTPHeaders()
        // Revalidated on every load (cheap: 304), so a new imock binary is never shadowed by
        // an old cached script.
        headers.set("Cache-Control", "no-cache")
        headers.set("ETag", asset.etag)
        headers.set("Content-Security-Policy", contentSecurityPolicy)
        headers.set("X-Content-Type-Options", "nosniff")
        headers.set("X-Frame-Options", "DENY")
        headers.set("Referrer-Policy", "no-referrer")
        headers.set("Cross-Origin-Opener-Policy", "same-origin")
        headers.set("Cross-Origin-Resource-Policy", "same-origin")
        if let ifNoneMatch, ifNoneMatch.split(separator: ",").contains(where: { $0.trimmingSpaces == asset.etag }) {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.set("Content-Type", asset.contentType)
        return HTTPResponse(status: 200, headers: headers, body: asset.body)
    }
}

extension ControlAccess {
    /// The dashboard's files carry no data, so they need no secret; they answer the clients the
    /// control API answers (loopback, or anyone with `--control-remote`).
    func checkPage(context: HTTPRequestContext) throws(ControlError) {
        guard allowRemote || context.peer?.isLoopback == true else { throw .notLoopback }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
