/// Where the server is: host, port, the WebSocket path and whether it uses TLS.
public struct ServerEndpoint: Sendable, Equatable {
    /// The host name or address (IPv6 without brackets).
    public var host: String
    /// The TCP port.
    public var port: UInt16
    /// The WebSocket path, `/ws` by default.
    public var path: String
    /// `wss` / `https`.
    public var secure: Bool

    /// Creates an endpoint.
    public init(host: String, port: UInt16, path: String = "/ws", secure: Bool = false) {
        self.host = host
        self.port = port
        self.path = path
        self.secure = secure
    }

    /// Parses `ws://host:port/ws`, `wss://…`, `http://…` or `https://…` (the path defaults to `/ws`).
    public init(url: String) throws(ServerURLError) {
        let schemes: [(String, Bool, UInt16)] = [("ws://", false, 80), ("wss://", true, 443), ("http://", false, 80), ("https://", true, 443)]
        guard let (prefix, secure, defaultPort) = schemes.first(where: { url.lowercased().hasPrefix($0.0) }) else {
            throw .unsupportedScheme(url)
        }
        let rest = url.dropFirst(prefix.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let remainder = rest.dropFirst(authority.count)
        var path = String(remainder.prefix { $0 != "?" && $0 != "#" })
        if path.isEmpty || path == "/" { path = "/ws" }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidHost(url) }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidHost(url) }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty, !host.contains("@") else { throw .invalidHost(url) }
        var port = defaultPort
        if let portText {
            guard let value = UInt16(portText), value > 0 else { throw .invalidPort(String(portText)) }
            port = value
        }
        self.init(host: String(host), port: port, path: path, secure: secure)
    }

    /// The `Host` header value.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return "\(name):\(port)"
    }

    /// The TLS server name (SNI) of a `wss` / `https` endpoint: the bare host, never `host:port`;
    /// nil for plain endpoints and for IP addresses, which SNI must not carry (RFC 6066 §3).
    public var tlsServerName: String? {
        guard secure, !isIPAddress else { return nil }
        return host
    }
    /// Whether `host` is an IPv4 or IPv6 literal.
    public var isIPAddress: Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }
    }
}

/// Why a server URL was refused.
public enum ServerURLError: Error, Sendable, Equatable {
    /// Not `ws`, `wss`, `http` or `https`.
    case unsupportedScheme(String)
    /// No host, or a malformed one (user info is not accepted).
    case invalidHost(String)
    /// The port is not 1–65535.
    case invalidPort(String)
}
