/// The bytes of one HTTP/1.1 request as imock's clients send it: the request line, `Host`, the
/// given headers in order, then for a body `Content-Type: application/json` and its
/// `Content-Length`, `Connection: close` when the connection ends with the answer, and the body.
public enum HTTPClientRequest {
    /// `method path` to `host` (the `Host` header's value).
    public static func bytes(
        _ method: String, _ path: String, host: String, headers: [(String, String)] = [], jsonBody: [UInt8]? = nil,
        closeAfterAnswer: Bool = false
    ) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let jsonBody { head += "Content-Type: application/json\r\nContent-Length: \(jsonBody.count)\r\n" }
        if closeAfterAnswer { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (jsonBody ?? [])
    }

    /// `Authorization: Bearer token`, or nothing without a token.
    public static func bearer(_ token: String?) -> [(String, String)] {
        token.map { [("Authorization", "Bearer \($0)")] } ?? []
    }
}
