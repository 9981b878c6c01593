import IMockNet

/// One client of a measured figure: a connection that repeats one exchange when asked.
/// Loop-confined to the client loop.
protocol LoadClient: AnyObject {
    /// Opens the connection; reports `clientConnected()` or `clientFailed(_:)` to `phase`.
    func connect(for phase: LoadPhase)
    /// Sends one request; the complete reply reports `exchangeCompleted(by:)`.
    func sendRequest()
    /// Closes the connection without reporting a failure.
    func disconnect()
}

/// Why the benchmark could not measure a figure.
public struct BenchError: Error, Sendable, CustomStringConvertible {
    /// Which figure failed and why.
    public var description: String
    init(_ description: String) { self.description = description }
}

/// A closed-loop measurement: every client connects, then all repeat their exchange for
/// `duration`; the result is the exchanges completed and the seconds they took.
/// Loop-confined to the client loop.
final class LoadPhase {
    /// What one phase measured.
    struct Measurement {
        var exchanges: Int
        var seconds: Double
    }

    let loop: EventLoop
    private let name: String
    private let duration: Duration
    private let clients: [any LoadClient]
    private var connected = 0
    private var completed = 0
    private var measuring = false
    private var startedAt = MonotonicInstant(nanoseconds: 0)
    private var completion: ((Result<LoadPhase.Measurement, BenchError>) -> Void)?

    init(name: String, loop: EventLoop, duration: Duration, clients: [any LoadClient]) {
        self.name = name
        self.loop = loop
        self.duration = duration
        self.clients = clients
    }

    /// Connects every client, measures, disconnects them, and reports what was measured.
    func run(completion: @escaping (Result<LoadPhase.Measurement, BenchError>) -> Void) {
        self.completion = completion
        for client in clients {
            guard self.completion != nil else { return }
            client.connect(for: self)
        }
    }

    func clientConnected() {
        guard completion != nil else { return }
        connected += 1
        if connected == clients.count { begin() }
    }

    func clientFailed(_ reason: String) {
        finish(.failure(BenchError("\(name): \(reason)")))
    }

    func exchangeCompleted(by client: any LoadClient) {
        guard measuring else { return }
        completed += 1
        client.sendRequest()
    }

    private func begin() {
        startedAt = MonotonicInstant.now()
        measuring = true
        loop.scheduleTimer(after: duration) { [self] in
            let elapsed = Double(MonotonicInstant.now().nanoseconds - startedAt.nanoseconds) / 1e9
            let count = completed
            finish(
                count > 0
                    ? .success(Measurement(exchanges: count, seconds: elapsed))
                    : .failure(BenchError("\(name): no exchange completed")))
        }
        for client in clients { client.sendRequest() }
    }

    private func finish(_ result: Result<LoadPhase.Measurement, BenchError>) {
        guard let completion else { return }
        self.completion = nil
        measuring = false
        for client in clients { client.disconnect() }
        completion(result)
    }
}
