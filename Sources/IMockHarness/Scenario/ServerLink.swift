import IMockClient
import IMockCommon
import IMockCore
import IMockNet

/// An HTTP answer: status and body (`null` when it is not JSON).
public struct HTTPAnswer: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: JSONValue
}

/// The scenario's link to its server: JSON calls to the REST and control APIs (over HTTP, on the
/// scenario's event loop: REST is what is under test) and the one virtual clock.
///
/// The reference client's devices keep their timers on ``deviceTimeline``. In process
/// (``InProcessLink``) that is the server's own `Timeline`: one move fires the devices' and the
/// server's timers in deadline order. Against `--server URL` (``RemoteLink``) it is a timeline
/// of the harness that stands for the devices' clock, moved in step with the server's, whose
/// clock moves through the control API.
protocol ServerLink: Sendable {
    /// The loop of the scenario's devices and HTTP calls.
    var loop: EventLoop { get }
    /// The server's HTTP endpoint.
    var endpoint: ServerEndpoint { get }
    /// The control API's bearer secret.
    var adminSecret: String { get }
    /// The clock and timer list of the reference client's devices.
    var deviceTimeline: Timeline { get }

    /// The moments after `nowMs` and up to `target` when the server will act that
    /// ``deviceTimeline`` does not list (remotely: token warnings and expiries, fault ends).
    func serverStops(after nowMs: Int64, upTo target: Int64, apps: [ServerApp], tokenWarningPercent: Int)
        async throws(ScenarioFailure) -> [Int64]

    /// Moves the clock to `timeMs` (not before now; at now it fires what is due). In process
    /// every timer due on the way fires, in deadline order; remotely the server's do, and the
    /// devices' wait for ``fireDeviceTimers()``.
    func moveClock(to timeMs: Int64) async throws(ScenarioFailure)

    /// Fires the device timers a move left due (remotely; in process they fired with the move).
    func fireDeviceTimers() async
}

extension ServerLink {
    /// `method path` with an optional bearer token, other header fields and a JSON body.
    func call(
        _ method: String, _ path: String, bearer: String?, headers: [(String, String)] = [], body: JSONValue? = nil
    ) async throws(ScenarioFailure) -> HTTPAnswer {
        let result: Result<(status: Int, body: [UInt8]), HTTPFetchError> = await withCheckedContinuation { continuation in
            loop.execute { [endpoint, loop] in
                HTTPFetch.request(
                    loop: loop, endpoint: endpoint, tls: nil, method: method, path: path, bearer: bearer, headers: headers,
                    body: body.map { $0.encoded() }
                ) { continuation.resume(returning: $0) }
            }
        }
        switch result {
        case .success(let answer):
            return HTTPAnswer(status: answer.status, body: (try? JSONValue.parse(answer.body)) ?? .null)
        case .failure(let error):
            throw .infrastructure("\(method) \(path): \(describe(error, url: url))")
        }
    }

    /// The server's base URL (`http://127.0.0.1:5280`).
    var url: String {
        let host = endpoint.host.contains(":") ? "[\(endpoint.host)]" : endpoint.host
        return "\(endpoint.secure ? "https" : "http")://\(host):\(endpoint.port)"
    }

    /// Returns once the loop has handled every descriptor that was readable when this was called
    /// (two hops through its task queue, each after a round of ready descriptors): what the
    /// server wrote to the devices before its last answer has been read by them.
    func drain() async {
        for _ in 0..<2 { await onLoop {} }
    }

    /// Runs `body` on the loop and returns its result.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (done: CheckedContinuation<T, Never>) in loop.execute { done.resume(returning: body()) } }
    }

    /// A control-API call (`/_imock/…`) that must succeed with `expected`.
    @discardableResult
    func control(_ method: String, _ path: String, _ body: JSONValue? = nil, expected: Int = 200) async throws(ScenarioFailure)
        -> JSONValue
    {
        let answer = try await call(method, "/_imock/" + path, bearer: adminSecret, body: body)
        guard answer.status == expected else {
            throw .infrastructure(
                "control API \(method) /_imock/\(path) answered \(answer.status): \(answer.body["error_description"]?.stringValue ?? answer.body.encodedString)")
        }
        return answer.body
    }
}

/// Why a call got no answer, in words: `cannot connect to http://…: connection refused`.
private func describe(_ error: HTTPFetchError, url: String) -> String {
    switch error {
    case .connectFailed(let reason):
        // SystemError's text: "connect failed: Connection refused (errno 111)".
        var why = reason.hasPrefix("connect failed: ") ? String(reason.dropFirst("connect failed: ".count)) : reason
        if let errno = why.firstRange(of: " (errno ") { why = String(why[..<errno.lowerBound]) }
        return "cannot connect to \(url): \(why.prefix(1).lowercased() + why.dropFirst())"
    case .timedOut: return "no answer from \(url) within \(HTTPFetch.timeout)"
    case .responseTooLarge: return "the answer of \(url) is larger than \(HTTPFetch.maxResponseBytes) bytes"
    case .malformedResponse(let why): return "a malformed answer from \(url): \(why)"
    }
}
