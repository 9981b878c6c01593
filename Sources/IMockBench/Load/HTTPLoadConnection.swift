import IMockNet

/// One keep-alive HTTP/1.1 client connection: one request at a time, responses read by
/// `Content-Length`. Loop-confined to the client loop.
final class HTTPLoadConnection: ConnectionHandler {
    typealias Response = (status: Int, body: [UInt8])

    private let address: SocketAddress
    private var connection: Connection?
    private var opened: ((Result<Void, BenchError>) -> Void)?
    private var pending: ((Result<Response, BenchError>) -> Void)?
    private var reader = HTTPResponseReader()
    private var closing = false

    init(address: SocketAddress) {
        self.address = address
    }

    /// Connects; `completion` runs once the connection is open or failed.
    func open(loop: EventLoop, completion: @escaping (Result<Void, BenchError>) -> Void) {
        opened = completion
        do {
            connection = try Connection.connect(loop: loop, to: address, handler: self) { [weak self] error in
                guard let self, let error else { return }
                self.finishOpen(.failure(BenchError("HTTP connect failed: \(error)")))
            }
        } catch {
            finishOpen(.failure(BenchError("HTTP connect failed: \(error)")))
        }
    }

    /// Sends one request; `completion` gets the status and body.
    func request(
        _ method: String, _ path: String, bearer: String? = nil, json: [UInt8]? = nil,
        completion: @escaping (Result<Response, BenchError>) -> Void
    ) {
        guard let connection, pending == nil else {
            completion(.failure(BenchError("HTTP connection not ready for \(method) \(path)")))
            return
        }
        pending = completion
        reader = HTTPResponseReader()
        connection.write(
            HTTPClientRequest.bytes(method, path, host: "127.0.0.1", headers: HTTPClientRequest.bearer(bearer), jsonBody: json))
    }

    /// Closes the connection.
    func close() {
        closing = true
        connection?.close(.immediately)
        connection = nil
    }

    private func finishOpen(_ result: Result<Void, BenchError>) {
        let opened = self.opened
        self.opened = nil
        opened?(result)
    }

    private func finishRequest(_ result: Result<Response, BenchError>) {
        let pending = self.pending
        self.pending = nil
        pending?(result)
    }

    // MARK: ConnectionHandler

    func connectionDidBecomeActive(_ connection: Connection) {
        finishOpen(.success(()))
    }

    func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        do {
            guard let response = try reader.feed(bytes) else { return }
            finishRequest(.success((response.head.status, response.body)))
        } catch {
            finishRequest(.failure(BenchError("\(error)")))
        }
    }

    func connectionDidReachEOF(_ connection: Connection) {
        connection.close(.immediately)
    }

    func connectionDidClose(_ connection: Connection, error: (any Error)?) {
        self.connection = nil
        guard !closing else { return }
        finishOpen(.failure(BenchError("HTTP connection closed: \(error.map { "\($0)" } ?? "by the server")")))
        finishRequest(.failure(BenchError("HTTP connection closed: \(error.map { "\($0)" } ?? "by the server")")))
    }
}
