import IMockCommon
extension WebSocketHandshake {
    /// A valid upgrade request, ready to be accepted.
    public struct ServerUpgrade: Sendable, Equatable {
        /// The request that asked for the upgrade (path, query and headers such as `Authorization`).
        public var request: HTTPRequest
        /// The client's `Sec-WebSocket-Key`, trimmed.
        public var key: String
        /// The `Sec-WebSocket-Accept` value for `key`.
        public var acceptKey: String
        /// The subprotocols from `Sec-WebSocket-Protocol`, in the client's order of preference
        /// (case preserved: subprotocol names are case-sensitive).
        public var requestedSubprotocols: [String]

        /// The `101 Switching Protocols` response accepting the upgrade.
        ///
        /// `subprotocol` must be one of ``requestedSubprotocols``; any other value is left out
        /// of the response, since the client would have to fail the connection over it.
        public func response(subprotocol: String? = nil) -> HTTPResponse {
            var headers = HTTPHeaders()
            headers.add("Upgrade", "websocket")
            headers.add("Connection", "Upgrade")
            headers.add("Sec-WebSocket-Accept", acceptKey)
            if let subprotocol, requestedSubprotocols.contains(subprotocol) {
                headers.add("Sec-WebSocket-Protocol", subprotocol)
            }
            return HTTPResponse(status: 101, headers: headers)
        }
    }

    /// Checks a client's opening handshake (RFC 6455 §4.2.1), in this order: method GET (405),
    /// HTTP/1.1 or later (400), `Upgrade` lists `websocket` (400), `Connection` lists
    /// `upgrade` (400), `Sec-WebSocket-Version` lists 13 (426 with `Sec-WebSocket-Version: 13`),
    /// one `Sec-WebSocket-Key` that is base64 of 16 bytes (400). Token comparisons ignore case.
    public static func validateUpgrade(_ request: HTTPRequest) -> Result<ServerUpgrade, HandshakeError> {
        let headers = request.headers
        guard request.method == "GET" else {
            return .failure(
                HandshakeError(
                    kind: .methodNotGET, status: 405, description: "WebSocket upgrade requires GET",
                    headers: ["Allow": "GET"]))
        }
        let version = request.version
        guard version.major > 1 || (version.major == 1 && version.minor >= 1) else {
            return .failure(
                HandshakeError(
                    kind: .unsupportedHTTPVersion, status: 400,
                    description: "WebSocket upgrade requires HTTP/1.1, got \(version)"))
        }
        guard headers.hasToken("websocket", in: "Upgrade") else {
            return .failure(
                HandshakeError(
                    kind: .missingUpgradeWebSocket, status: 400,
                    description: "missing 'Upgrade: websocket'"))
        }
        guard headers.hasToken("upgrade", in: "Connection") else {
            return .failure(
                HandshakeError(
                    kind: .missingConnectionUpgrade, status: 400,
                    description: "missing 'Connection: Upgrade'"))
        }
        guard headers.hasToken(webSocketVersion, in: "Sec-WebSocket-Version") else {
            return .failure(
                HandshakeError(
                    kind: .unsupportedWebSocketVersion, status: 426,
                    description: "unsupported Sec-WebSocket-Version; only 13 is supported",
                    headers: ["Sec-WebSocket-Version": webSocketVersion]))
        }
        let keys = headers.values(for: "Sec-WebSocket-Key")
        guard let rawKey = keys.first else {
            return .failure(
                HandshakeError(kind: .missingKey, status: 400, description: "missing Sec-WebSocket-Key"))
        }
        let key = rawKey.trimmingASCIIWhitespace()
        guard keys.count == 1, Base64.decode(key)?.count == 16 else {
            return .failure(
                HandshakeError(
                    kind: .invalidKey, status: 400,
                    description: "Sec-WebSocket-Key must be one base64 value of 16 bytes"))
        }
        return .success(
            ServerUpgrade(
                request: request, key: key, acceptKey: acceptKey(for: key),
                requestedSubprotocols: subprotocols(in: headers)))
    }

    /// The comma-separated values of every `Sec-WebSocket-Protocol` field, trimmed, case kept.
    static func subprotocols(in headers: HTTPHeaders) -> [String] {
        headers.values(for: "Sec-WebSocket-Protocol")
            .flatMap { $0.split(separator: ",") }
            .map { String($0).trimmingASCIIWhitespace() }
            .filter { !$0.isEmpty }
    }
}
