import IMockNet

/// One keep-alive connection that registers users one after another — `POST /{org}/{app}/users`
/// with a fresh name each time — and times each request from its write to the last byte of its
/// answer. Loop-confined to the client loop of ``StoreCostBenchmark``.
final class RegistrationClient: ConnectionHandler {
    private let address: SocketAddress
    private let path: String
    private let namePrefix: String
    private var connection: Connection?
    private var reader = HTTPResponseReader()
    private var sentAt: Int64 = 0
    private var serial = 0
    private var closing = false
    /// Called once the connection is open, or with why it could not be.
    private var onOpen: ((String?) -> Void)?
    /// Called with each request's latency in nanoseconds, or with why the exchange failed.
    var onAnswer: ((Result<Int64, StoreCostBenchmark.Failure>) -> Void)?

    /// A client of the app at `path` (`/bench/store`), naming its users `prefix-N`.
    init(address: SocketAddress, path: String, namePrefix: String) {
        self.address = address
        self.path = path
        self.namePrefix = namePrefix
    }

    func open(loop: EventLoop, completion: @escaping (String?) -> Void) {
        onOpen = completion
        do {
            connection = try Connection.connect(loop: loop, to: address, handler: self) { [weak self] error in
                guard let error else { return }
                self?.finishOpen("connect failed: \(error)")
            }
        } catch {
            finishOpen("connect failed: \(error)")
        }
    }

    /// Sends the next registration.
    func register() {
        serial += 1
        let body = Array(#"{"username":"\#(namePrefix)-\#(serial)","password":"bench-password"}"#.utf8)
        let request = HTTPClientRequest.bytes("POST", "\(path)/users", host: "127.0.0.1", jsonBody: body)
        reader = HTTPResponseReader()
        sentAt = MonotonicInstant.now().nanoseconds
        connection?.write(request)
    }

    func close() {
        closing = true
        connection?.close(.immediately)
        connection = nil
    }

    func connectionDidBecomeActive(_ connection: Connection) { finishOpen(nil) }

    func connection(_ connection: Connection, didReceive bytes: [UInt8]) {
        let response: (head: HTTPResponseHead, body: [UInt8])?
        do {
            response = try reader.feed(bytes)
        } catch {
            return fail("\(error)")
        }
        guard let response else { return }
        guard response.head.status == 200 else { return fail("registration answered \(response.head.status)") }
        onAnswer?(.success(MonotonicInstant.now().nanoseconds - sentAt))
    }

    func connectionDidReachEOF(_ connection: Connection) {
        if !closing { fail("the server closed the connection") }
        connection.close(.immediately)
    }

    func connectionDidClose(_ connection: Connection, error: (any Error)?) {
        if !closing { fail("the connection closed: \(error.map { "\($0)" } ?? "by the server")") }
    }

    private func finishOpen(_ failure: String?) {
        let completion = onOpen
        onOpen = nil
        completion?(failure)
    }

    private func fail(_ reason: String) {
        if onOpen != nil { return finishOpen(reason) }
        onAnswer?(.failure(StoreCostBenchmark.Failure(description: reason)))
    }
}
