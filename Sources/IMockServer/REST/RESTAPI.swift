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
    ]

    /// Routes `http` through ``routes`` and runs the handler: unknown path → 404
    /// `service_resource_not_found`, known path with another method → 405.
    public static func handle(
        _ http: HTTPRequest, state: inout RESTState, nowMs: Int64, presence: any PresenceView = NoPresence(),
        scheme: String = "http"
    ) -> RESTOutcome {
        switch RESTRouter(routes: routes).match(method: http.method, path: http.path) {
        case .matched(let route, let parameters):
            let request = RESTRequest(
                http: http, pathParameters: parameters, nowMs: nowMs, presence: presence, scheme: scheme)
            return route.handler(&state, request)
        case .methodNotAllowed(let allowed):
            var response = RESTError.methodNotAllowed.response(nowMs: nowMs)
            response.headers.set("Allow", allowed.joined(separator: ", "))
            return RESTOutcome(response: response)
        case .notFound:
            return RESTOutcome(response: RESTError.serviceResourceNotFound.response(nowMs: nowMs))
        }
    }
}

/// Matches request paths against route patterns; literal segments beat `{parameters}`.
public struct RESTRouter: Sendable {
    /// The result of matching one request.
    public enum Match: Sendable {
        /// A route and its path parameters.
        case matched(RESTRoute, [String: String])
        /// The path exists for these other methods.
        case methodNotAllowed(allowed: [String])
        /// No route has this path.
        case notFound
    }

    /// The routes, in priority order.
    public let routes: [RESTRoute]

    /// Creates a router.
    public init(routes: [RESTRoute]) { self.routes = routes }

    /// Finds the route for `method` and the (decoded) `path`.
    public func match(method: String, path: String) -> Match {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        var best: (route: RESTRoute, parameters: [String: String], literals: Int)?
        var allowed: [String] = []
        for route in routes {
            guard let (parameters, literals) = RESTRouter.bind(pattern: route.pattern, to: segments) else { continue }
            guard route.method == method else {
                if !allowed.contains(route.method) { allowed.append(route.method) }
                continue
            }
            if best == nil || literals > best?.literals ?? 0 { best = (route, parameters, literals) }
        }
        if let best { return .matched(best.route, best.parameters) }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }

    /// Binds `{name}` segments; nil when the shapes differ or a parameter would be empty.
    static func bind(pattern: String, to segments: [String]) -> ([String: String], Int)? {
        let patternSegments = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard patternSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        var literals = 0
        for (expected, actual) in zip(patternSegments, segments) {
            if expected.hasPrefix("{"), expected.hasSuffix("}") {
                guard !actual.isEmpty else { return nil }
                parameters[String(expected.dropFirst().dropLast())] = actual
            } else {
                guard expected == actual else { return nil }
                literals += 1
            }
        }
        return (parameters, literals)
    }
}
