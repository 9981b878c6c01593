import IMockClient
import IMockCore
import IMockNet

/// An HTTP answer: status and body (`null` when it is not JSON).
public struct HTTPAnswer: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: JSONValue
}

/// JSON calls to the server's REST and control APIs, on the scenario's event loop.
final class ServerLink: Sendable {
    let loop: EventLoop
    let endpoint: ServerEndpoint
    let adminSecret: String

    init(loop: EventLoop, endpoint: ServerEndpoint, adminSecret: String) {
        self.loop = loop
        self.endpoint = endpoint
        self.adminSecret = adminSecret
    }

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
            throw .infrastructure("\(method) \(path): \(Self.describe(error, url: url))")
        }
    }

    /// The server's base URL (`http://127.0.0.1:5280`).
    var url: String {
        let host = endpoint.host.contains(":") ? "[\(endpoint.host)]" : endpoint.host
        return "\(endpoint.secure ? "https" : "http")://\(host):\(endpoint.port)"
    }

    /// Why a call got no answer, in words: `cannot connect to http://…: connection refused`.
    static func describe(_ error: HTTPFetchError, url: String) -> String {
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

    /// Returns once the loop has handled every descriptor that was readable when this was called
    /// (two hops through its task queue, each after a round of ready descriptors): what the
    /// server wrote to the devices before its last answer has been read by them.
    func drain() async {
        for _ in 0..<2 {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in loop.execute { done.resume() } }
        }
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
