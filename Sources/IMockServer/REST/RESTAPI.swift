import IMockCore
import IMockNet

/// The Easemob-shaped REST API: the route list and a dispatcher.
public enum RESTAPI {
    /// Every route, in the order of `docs/openapi.yaml`.
    public static let routes: [RESTRoute] = [
        RESTRoute(method: "POST", pattern: "/{org}/{app}/token", handler: TokenRoute.handle),
        RESTRoute(method: "POST", pattern: "/{org}/{app}/users", handler: UsersRoute.register),
        RESTRoute(method: "GET", pattern: "/{org}/{app}/users", handler: UsersRoute.list),
        RESTRoute(method: "GET", pattern: "/{org}/{app}/users/{username}", handler: UserRoute.get),
        RESTRoute(method: "DELETE", pattern: "/{org}/{app}/users/{username}", handler: UserRoute.delete),
        RESTRoute(method: "PUT", pattern: "/{org}/{app}/users/{username}/password", handler: UserRoute.changePassword),
        RESTRoute(method: "POST", pattern: "/{org}/{app}/users/{username}/password", handler: UserRoute.changePassword),
        RESTRoute(method: "POST", pattern: "/{org}/{app}/users/{username}/deactivate", handler: UserRoute.deactivate),
        RESTRoute(method: "POST", pattern: "/{org}/{app}/users/{username}/activate", handler: UserRoute.activate),
        RESTRoute(method: "GET", pattern: "/{org}/{app}/users/{username}/disconnect", handler: DeviceRoute.disconnectAll),
        RESTRoute(
            method: "GET", pattern: "/{org}/{app}/users/{username}/disconnect/{resource}",
            handler: DeviceRoute.disconnectOne),
        RESTRoute(
            method: "DELETE", pattern: "/{org}/{app}/users/{username}/disconnect/{resource}",
            handler: DeviceRoute.disconnectOne),
        RESTRoute(method: "GET", pattern: "/{org}/{app}/users/{username}/status", handler: DeviceRoute.status),
        RESTRoute(method: "POST", pattern: "/{org}/{app}/users/batch/status", handler: DeviceRoute.batchStatus),
        RESTRoute(method: "GET", pattern: "/{org}/{app}/users/{username}/resources", handler: DeviceRoute.resources),
        RESTRoute(
            method: "GET", pattern: "/{org}/{app}/sdk/users/{username}/token/expires", handler: SDKTokenRoute.expires),
    ]

    /// The routes in a router (built once).
    public static let router: Router<RESTRoute> = {
        var router = Router<RESTRoute>()
        for route in routes { router.add(route.method, route.pattern, route) }
        return router
    }()

    /// Routes `http` through ``routes`` and runs the handler: unknown path → 404
    /// `service_resource_not_found`, known path with another method → 405. Password hashes are
    /// derived while handling unless `passwords` says otherwise (``PasswordWork``).
    public static func handle(
        _ http: HTTPRequest, domain: inout Domain, nowMs: Int64, presence: any PresenceView = NoPresence(),
        scheme: String = "http", passwords: PasswordWork = .inline
    ) -> RESTOutcome {
        switch router.match(method: http.method, path: http.path) {
        case .found(let route, let parameters):
            return route.run(
                http, parameters: parameters, domain: &domain, nowMs: nowMs, presence: presence, scheme: scheme,
                passwords: passwords)
        case .methodNotAllowed(let allowed):
            return RESTOutcome(response: RESTError.methodNotAllowedResponse(allowed: allowed, nowMs: nowMs))
        case .notFound:
            return RESTOutcome(response: RESTError.serviceResourceNotFound.response(nowMs: nowMs))
        }
    }
}

extension RESTRoute {
    /// Runs the handler for a request this route matched.
    public func run(
        _ http: HTTPRequest, parameters: [String: String], domain: inout Domain, nowMs: Int64,
        presence: any PresenceView, scheme: String, passwords: PasswordWork = .inline
    ) -> RESTOutcome {
        var request = RESTRequest(http: http, pathParameters: parameters, nowMs: nowMs, presence: presence, scheme: scheme)
        request.passwords = passwords
        return handler(&domain, request)
    }
}

extension RESTError {
    /// 405 with an `Allow` header listing the methods the path has.
    public static func methodNotAllowedResponse(allowed: [String], nowMs: Int64) -> HTTPResponse {
        var response = RESTError.methodNotAllowed.response(nowMs: nowMs)
        response.headers.set("Allow", allowed.joined(separator: ", "))
        return response
    }
}
