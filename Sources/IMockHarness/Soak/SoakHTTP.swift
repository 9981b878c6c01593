import IMockClient
import IMockCore
import IMockNet

/// The REST and control-API calls of a soak, on its event loop, counted. Loop-confined.
final class SoakHTTP {
    /// An answer: the status (nil when none came) and the JSON body (`null` when not JSON).
    struct Answer {
        var status: Int?
        var body: JSONValue
    }

    private let loop: EventLoop
    private let endpoint: ServerEndpoint
    let adminSecret: String
    /// Calls waiting for their answer.
    private(set) var inFlight = 0
    private(set) var calls = 0

    init(loop: EventLoop, endpoint: ServerEndpoint, adminSecret: String) {
        self.loop = loop
        self.endpoint = endpoint
        self.adminSecret = adminSecret
    }

    /// `method path` with a bearer token and a JSON body.
    func call(_ method: String, _ path: String, bearer: String?, body: String? = nil, completion: @escaping (Answer) -> Void) {
        inFlight += 1
        calls += 1
        HTTPFetch.request(
            loop: loop, endpoint: endpoint, tls: nil, method: method, path: path, bearer: bearer, body: body.map { Array($0.utf8) }
        ) { [self] result in
            inFlight -= 1
            switch result {
            case .success(let answer): completion(Answer(status: answer.status, body: (try? JSONValue.parse(answer.body)) ?? .null))
            case .failure: completion(Answer(status: nil, body: .null))
            }
        }
    }

    /// A control-API call (`/_imock/…`) with the admin secret.
    func control(_ method: String, _ path: String, body: String? = nil, completion: @escaping (Answer) -> Void) {
        call(method, "/_imock/" + path, bearer: adminSecret, body: body, completion: completion)
    }
}
