import Testing
@testable import IMockNet

@Suite("Router")
struct RouterTests {
    static func makeRouter() -> Router<String> {
        var router = Router<String>()
        router.add("GET", "/", "root")
        router.add("GET", "/{org}/{app}/users", "listUsers")
        router.add("POST", "/{org}/{app}/users", "createUser")
        router.add("GET", "/{org}/{app}/users/{username}", "getUser")
        router.add("DELETE", "/{org}/{app}/users/{username}", "deleteUser")
        router.add("GET", "/{org}/{app}/users/{username}/status", "userStatus")
        router.add("POST", "/{org}/{app}/users/batch/status", "batchStatus")
        router.add("GET", "/{org}/{app}/users/batch/status", "batchStatusGet")
        router.add("PUT", "/{org}/{app}/users/{username}/password", "setPassword")
        router.add("GET", "/management/health", "health")
        return router
    }

    @Test func capturesParameters() {
        #expect(Self.makeRouter().match(method: "GET", path: "/acme/chat/users/alice")
            == .found("getUser", parameters: ["org": "acme", "app": "chat", "username": "alice"]))
    }

    @Test func literalBeatsParameterAtTheSamePosition() {
        let router = Self.makeRouter()
        #expect(router.match(method: "GET", path: "/acme/chat/users/batch/status")
            == .found("batchStatusGet", parameters: ["org": "acme", "app": "chat"]))
        #expect(router.match(method: "GET", path: "/acme/chat/users/bob/status")
            == .found("userStatus", parameters: ["org": "acme", "app": "chat", "username": "bob"]))
        #expect(router.match(method: "GET", path: "/management/health") == .found("health", parameters: [:]))
    }

    @Test func parameterBranchIsTriedWhenTheLiteralBranchHasNoRoute() {
        // `/management/{app}/users` only exists through the parameter branch.
        #expect(Self.makeRouter().match(method: "GET", path: "/management/health/users")
            == .found("listUsers", parameters: ["org": "management", "app": "health"]))
        // No `batch` route for PUT .../password: the parameter route takes `batch` as a username.
        #expect(Self.makeRouter().match(method: "PUT", path: "/o/a/users/batch/password")
            == .found("setPassword", parameters: ["org": "o", "app": "a", "username": "batch"]))
    }

    @Test func methodNotAllowedListsAllowedMethods() {
        let router = Self.makeRouter()
        #expect(router.match(method: "PATCH", path: "/o/a/users") == .methodNotAllowed(allowed: ["GET", "HEAD", "POST"]))
        #expect(router.match(method: "POST", path: "/o/a/users/alice") == .methodNotAllowed(allowed: ["DELETE", "GET", "HEAD"]))
        // Both the literal and the parameter route match the path: their methods are merged.
        #expect(router.match(method: "DELETE", path: "/o/a/users/batch/status")
            == .methodNotAllowed(allowed: ["GET", "HEAD", "POST"]))
        #expect(router.match(method: "get", path: "/") == .methodNotAllowed(allowed: ["GET", "HEAD"]))
    }

    @Test func headFallsBackToGet() {
        let router = Self.makeRouter()
        #expect(router.match(method: "HEAD", path: "/o/a/users/alice")
            == .found("getUser", parameters: ["org": "o", "app": "a", "username": "alice"]))
        var withHead = Router<String>()
        withHead.add("GET", "/x", "get")
        withHead.add("HEAD", "/x", "head")
        #expect(withHead.match(method: "HEAD", path: "/x") == .found("head", parameters: [:]))
    }

    @Test func trailingSlashIsTolerated() {
        let router = Self.makeRouter()
        #expect(router.match(method: "GET", path: "/o/a/users/") == .found("listUsers", parameters: ["org": "o", "app": "a"]))
        #expect(router.match(method: "GET", path: "/") == .found("root", parameters: [:]))
    }

    @Test(arguments: ["/nope", "/o/a", "/o/a/users/alice/extra/more", "/o/a/users//status", "//a/users", "", "*", "/o/a/users/alice//"])
    func notFound(path: String) {
        #expect(Self.makeRouter().match(method: "GET", path: path) == .notFound)
    }

    @Test func parametersTakeDecodedSegmentsVerbatim() {
        #expect(Self.makeRouter().match(method: "GET", path: "/o/a/users/a b+é")
            == .found("getUser", parameters: ["org": "o", "app": "a", "username": "a b+é"]))
    }

    @Test func differentParameterNamesAtTheSamePosition() {
        var router = Router<Int>()
        router.add("GET", "/items/{id}", 1)
        router.add("POST", "/items/{name}", 2)
        #expect(router.match(method: "GET", path: "/items/7") == .found(1, parameters: ["id": "7"]))
        #expect(router.match(method: "POST", path: "/items/7") == .found(2, parameters: ["name": "7"]))
    }

    @Test func routesKeepInsertionOrder() {
        let routes = Self.makeRouter().routes
        #expect(routes.count == 10)
        #expect(routes.first.map { "\($0.method) \($0.pattern)" } == "GET /")
        #expect(routes.map { "\($0.method) \($0.pattern)" }[6] == "POST /{org}/{app}/users/batch/status")
    }
}
