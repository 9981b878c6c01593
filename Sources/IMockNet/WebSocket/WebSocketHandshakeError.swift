extension WebSocketHandshake {
    /// Why an opening handshake was refused.
    ///
    /// On the server side `status` is the HTTP status to answer with (send ``response``);
    /// on the client side it is the status the server answered with.
    public struct HandshakeError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The specific check that failed.
        public enum Kind: Equatable, Sendable {
            /// The request method is not GET (405).
            case methodNotGET
            /// The request is older than HTTP/1.1 (400).
            case unsupportedHTTPVersion
            /// `Upgrade` does not list `websocket` (400; client: the response's).
            case missingUpgradeWebSocket
            /// `Connection` does not list `upgrade` (400; client: the response's).
            case missingConnectionUpgrade
            /// `Sec-WebSocket-Version` is missing or not 13 (426 with `Sec-WebSocket-Version: 13`).
            case unsupportedWebSocketVersion
            /// `Sec-WebSocket-Key` is missing (400).
            case missingKey
            /// `Sec-WebSocket-Key` is repeated or not base64 of exactly 16 bytes (400).
            case invalidKey
            /// Client: the server did not answer 101 Switching Protocols.
            case unexpectedStatus
            /// Client: `Sec-WebSocket-Accept` is missing or does not match the key sent.
            case invalidAcceptKey
            /// Client: the server named an extension although none was offered.
            case unexpectedExtension
            /// Client: the server selected a subprotocol that was not offered.
            case unexpectedSubprotocol
        }

        /// The failed check.
        public var kind: Kind
        /// The HTTP status (see the type's description).
        public var status: Int
        /// A human-readable explanation.
        public var description: String
        /// Extra headers for the error response (`Sec-WebSocket-Version: 13` for 426, `Allow: GET` for 405).
        public var headers: HTTPHeaders

        /// An error of `kind` with its status, explanation and response headers.
        public init(kind: Kind, status: Int, description: String, headers: HTTPHeaders = HTTPHeaders()) {
            self.kind = kind
            self.status = status
            self.description = description
            self.headers = headers
        }

        /// The HTTP response a server sends for this error: the status, the extra headers and
        /// the description as a plain-text body.
        public var response: HTTPResponse {
            var headers = headers
            headers.set("Content-Type", "text/plain; charset=utf-8")
            return HTTPResponse(status: status, headers: headers, body: Array(description.utf8))
        }
    }
}
