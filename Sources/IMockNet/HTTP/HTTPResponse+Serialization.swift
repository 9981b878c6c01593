extension HTTPResponse {
    /// The interim response that tells a client to send the body it announced with `Expect: 100-continue`.
    public static let continue100: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The response as bytes for the wire: status line, headers, then the body.
    ///
    /// - Adds `Content-Length` unless the status is 1xx, 204 or 304, or the headers
    ///   already have `Content-Length` or `Transfer-Encoding`.
    /// - Adds `Connection: close` when `keepAlive` is false, and `Connection: keep-alive`
    ///   for a kept-alive HTTP/1.0 connection, unless the headers already say so.
    /// - Omits the body for HEAD requests (keeping Content-Length) and for 1xx, 204 and 304.
    /// - Never lets a header split the response: a field whose name is not a token is
    ///   dropped, and control characters other than tab (CR, LF, NUL…) are removed from values.
    public func serialized(version: HTTPVersion = .http1_1, keepAlive: Bool, isHeadRequest: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + headers.count * 32 + body.count)
        out.append(contentsOf: "\(version) \(status) \(HTTPStatus.reasonPhrase(for: status))\r\n".utf8)
        for field in headers {
            Self.appendField(name: field.name, value: field.value, to: &out)
        }
        let forbidsBody = HTTPStatus.forbidsBody(status)
        if !forbidsBody, !headers.contains("Content-Length"), !headers.contains("Transfer-Encoding") {
            Self.appendField(name: "Content-Length", value: String(body.count), to: &out)
        }
        if !keepAlive, !headers.hasToken("close", in: "Connection") {
            Self.appendField(name: "Connection", value: "close", to: &out)
        } else if keepAlive, version == .http1_0, !headers.hasToken("keep-alive", in: "Connection") {
            Self.appendField(name: "Connection", value: "keep-alive", to: &out)
        }
        out.append(contentsOf: "\r\n".utf8)
        if !forbidsBody, !isHeadRequest {
            out.append(contentsOf: body)
        }
        return out
    }

    private static func appendField(name: String, value: String, to out: inout [UInt8]) {
        guard HTTPSyntax.isToken(name.utf8) else { return }
        out.append(contentsOf: name.utf8)
        out.append(contentsOf: ": ".utf8)
        out.append(contentsOf: value.utf8.filter(HTTPSyntax.isFieldValueCharacter))
        out.append(contentsOf: "\r\n".utf8)
    }
}
