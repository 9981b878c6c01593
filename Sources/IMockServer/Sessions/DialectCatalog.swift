import IMockWire

/// The wire dialects the server serves, each at its path. Adding a dialect is one line here
/// (and its codec in IMockWire): docs/ARCHITECTURE.md § Adding a dialect.
public struct DialectRoute: Sendable {
    /// The WebSocket path it is served at.
    public let path: String
    /// A new dialect instance for one connection.
    public let make: @Sendable () -> any WireDialect

    /// A dialect served at `path`.
    public init(path: String, make: @escaping @Sendable () -> any WireDialect) {
        self.path = path
        self.make = make
    }
}

/// The dialects a server serves unless told otherwise.
public enum DialectCatalog {
    /// Every dialect of `imock serve`.
    public static let served: [DialectRoute] = [
        DialectRoute(path: ImockJSONDialect.path) { ImockJSONDialect() },
        DialectRoute(path: OpenIMHandshake.pathPattern) { OpenIMGatewayDialect() },
    ]
}
