/// The status line and headers of an HTTP/1.x response, as read by a client.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The version from the status line.
    public var version: HTTPVersion
    /// The three-digit status code.
    public var status: Int
    /// The reason phrase (may be empty).
    public var reasonPhrase: String
    /// The header fields in order.
    public var headers: HTTPHeaders

    /// A head with the given parts.
    public init(version: HTTPVersion = .http1_1, status: Int, reasonPhrase: String = "", headers: HTTPHeaders = HTTPHeaders()) {
        self.version = version
        self.status = status
        self.reasonPhrase = reasonPhrase
        self.headers = headers
    }
}
