/// A minimal HTTP/1.1 client on an ``EventLoop``: one request per connection
/// (`Connection: close`), a bounded response read to the end. Loop-confined. The reference
/// client uses it for its REST calls, the conformance harness, the soak and `imock token` for
/// the REST and control APIs.
public enum HTTPFetch {
    /// The largest response accepted.
    public static let maxResponseBytes = 1 << 20
    /// How long connect, request and response may take together.
    public static let timeout: Duration = .seconds(10)

    /// Sends `GET path` and calls `completion` on the loop with the status and body.
    public static func get(
        loop: EventLoop, endpoint: ServerEndpoint, tls: TLSContext?, path: String, bearer: String,
        completion: @escaping (Result<(status: Int, body: [UInt8]), HTTPFetchError>) -> Void
    ) {
        request(loop: loop, endpoint: endpoint, tls: tls, method: "GET", path: path, bearer: bearer, completion: completion)
    }

    /// Sends `method path` with an optional bearer token and JSON body; calls `completion` on the
    /// loop with the status and body. Call on the loop thread.
    public static func request(
        loop: EventLoop, endpoint: ServerEndpoint, tls: TLSContext?, method: String, path: String, bearer: String?,
        headers: [(String, String)] = [], body: [UInt8]? = nil,
        completion: @escaping (Result<(status: Int, body: [UInt8]), HTTPFetchError>) -> Void
    ) {
        let request = HTTPClientRequest.bytes(
            method, path, host: endpoint.hostHeader,
            headers: [("Accept", "application/json")] + HTTPClientRequest.bearer(bearer) + headers, jsonBody: body,
            closeAfterAnswer: true)
        let handler = HTTPFetchHandler(request: request, completion: completion)
        handler.loop = loop
        do {
            let address = try SocketAddress.resolve(host: endpoint.host, port: endpoint.port)
            let connection = try Connection.connect(
                loop: loop, to: address, tls: endpoint.secure ? tls : nil,
                serverName: endpoint.tlsServerName, handler: handler
            ) { error in
                if let error { handler.finish(.failure(.connectFailed("\(error)"))) }
            }
            handler.timer = loop.scheduleTimer(after: timeout) { [weak connection] in
                handler.finish(.failure(.timedOut))
                connection?.close(.immediately)
            }
        } catch {
            completion(.failure(.connectFailed("\(error)")))
        }
    }
}

/// Why a REST call got no answer.
public enum HTTPFetchError: Error, Equatable, Sendable {
    case connectFailed(String)
    case timedOut
    case responseTooLarge
    case malformedResponse(String)
}

private final class HTTPFetchHandler: ConnectionHandler {
    private let request: [UInt8]
    private var completion: ((Result<(status: Int, body: [UInt8]), HTTPFetchError>) -> Void)?
    private var received: [UInt8] = []
    /// Whether the connection was made (a close before it is a failed connect, not a short answer).
    private var connected = false
    var timer: LoopTimerID?
    weak var loop: EventLoop?

    init(request: [UInt8], completion: @escaping (Result<(status: Int, body: [UInt8]), HTTPFetchError>) -> Void) {
        self.request = request
        self.completion = completion
    }

    func finish(_ result: Result<(status: Int, body: [UInt8]), HTTPFetchError>) {
        guard let completion else { return }
        self.completion = nil
        if let timer { loop?.cancelTimer(timer) }
        completion(result)
    }

    func connectionDidBecomeActive(_ connection: Connection) {
        connected = true
        connection.write(request)
    }

    func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        received += bytes
        if received.count > HTTPFetch.maxResponseBytes {
            finish(.failure(.responseTooLarge))
            connection.close(.immediately)
        }
    }

    func connectionDidReachEOF(_ connection: Connection) {
        finish(HTTPFetchParsing.parse(received))
        connection.close(.immediately)
    }

    func connectionDidClose(_ connection: Connection, error: (any Error)?) {
        if !connected, let error {
            finish(.failure(.connectFailed("\(error)")))
            return
        }
        finish(HTTPFetchParsing.parse(received))
    }
}

/// Reads a complete HTTP/1.1 response.
enum HTTPFetchParsing {
    /// The status and body of a complete response (Content-Length, chunked, or read to the end).
    static func parse(_ bytes: [UInt8]) -> Result<(status: Int, body: [UInt8]), HTTPFetchError> {
        var parser = HTTPResponseHeadParser()
        let parsed: (head: HTTPResponseHead, leftover: [UInt8])?
        do { parsed = try parser.feed(bytes) } catch { return .failure(.malformedResponse("\(error)")) }
        guard let (head, rest) = parsed else { return .failure(.malformedResponse("the response ended in its head")) }
        if head.headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            return dechunk(rest).map { (head.status, $0) }
        }
        if let lengthText = head.headers["Content-Length"] {
            guard let length = Int(lengthText), length >= 0, length <= rest.count else {
                return .failure(.malformedResponse("Content-Length \(lengthText) does not match the body"))
            }
            return .success((head.status, Array(rest.prefix(length))))
        }
        return .success((head.status, rest))
    }

    static func dechunk(_ bytes: [UInt8]) -> Result<[UInt8], HTTPFetchError> {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = crlf(in: bytes, from: index) else { return .failure(.malformedResponse("chunk size")) }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingSpaces, radix: 16), size >= 0 else {
                return .failure(.malformedResponse("chunk size \(sizeText)"))
            }
            index = lineEnd + 2
            if size == 0 { return .success(body) }
            guard bytes.count - index >= size + 2 else { return .failure(.malformedResponse("truncated chunk")) }
            body += bytes[index..<index + size]
            index += size + 2
        }
    }

    static func crlf(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
