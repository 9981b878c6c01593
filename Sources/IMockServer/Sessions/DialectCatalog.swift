import IMockCommon
import IMockNet
import IMockWire

/// The wire dialects the server serves, each at its path. Adding a dialect is one line here
/// (and its codec in IMockWire): docs/ARCHITECTURE.md § Adding a dialect.
public struct DialectRoute: Sendable {
    /// The WebSocket path it is served at (a router pattern: `{name}` matches one segment).
    public let path: String
    /// A new dialect instance for one connection.
    public let make: @Sendable () -> any WireDialect
    /// Plain HTTP `GET` routes the dialect's clients need beside the WebSocket (SockJS's
    /// `{base}/info`).
    public let companions: [DialectHTTPRoute]

    /// A dialect served at `path`.
    public init(path: String, companions: [DialectHTTPRoute] = [], make: @escaping @Sendable () -> any WireDialect) {
        self.path = path
        self.make = make
        self.companions = companions
    }
}

/// A plain HTTP `GET` beside a dialect's WebSocket.
public struct DialectHTTPRoute: Sendable {
    /// The path pattern.
    public let pattern: String
    /// The answer, given the server's random source (SockJS's `entropy`).
    public let respond: @Sendable (RandomSource) -> HTTPResponse

    /// A route at `pattern`.
    public init(pattern: String, respond: @escaping @Sendable (RandomSource) -> HTTPResponse) {
        self.pattern = pattern
        self.respond = respond
    }

    /// `GET {base}/info` of a SockJS service: the WebSocket transport is available.
    public static func sockJSInfo(base: String) -> DialectHTTPRoute {
        DialectHTTPRoute(pattern: base + "/info") { random in
            var headers = HTTPHeaders()
            headers.set("Content-Type", SockJSInfo.contentType)
            headers.set("Cache-Control", "no-store, no-cache, no-transform, must-revalidate, max-age=0")
            headers.set("Access-Control-Allow-Origin", "*")
            let body = SockJSInfo.body(entropy: UInt32(truncatingIfNeeded: random.next()))
            return HTTPResponse(status: 200, headers: headers, body: Array(body.utf8))
        }
    }
}

/// The dialects a server serves unless told otherwise.
public enum DialectCatalog {
    /// Every dialect of `imock serve`.
    public static let served: [DialectRoute] = [
        DialectRoute(path: ImockJSONDialect.path) { ImockJSONDialect() },
        DialectRoute(path: OpenIMHandshake.pathPattern) { OpenIMGatewayDialect() },
        DialectRoute(path: MsyncDialect.path) { MsyncDialect() },
        DialectRoute(
            path: SockJSMsyncDialect.sessionPattern,
            companions: [.sockJSInfo(base: SockJSMsyncDialect.basePath)]
        ) { SockJSMsyncDialect() },
    ]
}
