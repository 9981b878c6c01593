import Dispatch
import IMockCore
import IMockNet
import Synchronization

/// JSON requests on an event loop of its own, waited for on the calling thread: the command
/// line's (`imock token`, `imock exec`) and an interrupted run's clean-up.
public final class BlockingHTTP: Sendable {
    /// An answer: the status and the body (`null` when it is not JSON).
    public struct Answer: Sendable {
        public var status: Int
        public var body: JSONValue
    }

    private let loop: EventLoop
    private let endpoint: ServerEndpoint
    /// For `https`: the system's trusted certificates.
    private let tls: TLSContext?

    /// For `https`, the certificates of `trusting` (a PEM file) are trusted, else the system's.
    public init(endpoint: ServerEndpoint, trusting: String? = nil) throws {
        loop = try EventLoop()
        tls = endpoint.secure ? try TLSContext(clientTrusting: trusting) : nil
        loop.start()
        self.endpoint = endpoint
    }

    /// `method path` with an optional bearer token and JSON body, waited for.
    public func call(_ method: String, _ path: String, bearer: String?, body: JSONValue? = nil) -> Result<Answer, HTTPFetchError> {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        loop.execute { [loop, endpoint, tls] in
            HTTPFetch.request(
                loop: loop, endpoint: endpoint, tls: tls, method: method, path: path, bearer: bearer, body: body?.encoded()
            ) { outcome in
                result.set(outcome.map { Answer(status: $0.status, body: (try? JSONValue.parse($0.body)) ?? .null) })
                done.signal()
            }
        }
        done.wait()
        return result.value ?? .failure(.connectFailed("no answer"))
    }

    /// Stops the client's loop.
    public func close() {
        loop.stop()
    }

    private final class ResultBox: Sendable {
        private let cell = Mutex<Result<Answer, HTTPFetchError>?>(nil)
        var value: Result<Answer, HTTPFetchError>? { cell.withLock { $0 } }
        func set(_ value: Result<Answer, HTTPFetchError>) { cell.withLock { $0 = value } }
    }
}
