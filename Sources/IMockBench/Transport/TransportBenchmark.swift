import CIMockShims
import Dispatch
import IMockCommon
import IMockCore
import IMockNet
import IMockServer
import Synchronization

/// `imock bench`: an in-process `MockServer` (plus a raw TCP echo listener for the baseline)
/// on one event-loop thread, closed-loop clients on another, three figures measured in turn.
public enum TransportBenchmark {
    /// Measures the three figures and returns them.
    public static func run(_ options: TransportOptions) async throws(BenchError) -> TransportReport {
        let result = await withCheckedContinuation { continuation in
            start(options) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Measures the three figures, blocking the calling thread (for the command line).
    public static func runBlocking(_ options: TransportOptions) throws(BenchError) -> TransportReport {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<TransportReport, BenchError>?>(nil)
        start(options) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.withLock({ $0 }) else { throw BenchError("the benchmark ended without a result") }
        return try result.get()
    }

    private static func start(
        _ options: TransportOptions, completion: @escaping @Sendable (Result<TransportReport, BenchError>) -> Void
    ) {
        // Both ends of every connection live in this process.
        _ = cimock_raise_nofile_limit(1 << 20)
        let run: BenchRun
        do {
            run = try BenchRun(options: options)
        } catch {
            completion(.failure(BenchError("cannot start the in-process server: \(error)")))
            return
        }
        run.start(completion: completion)
    }
}

/// The loops, the server and the phases of one benchmark run.
///
/// Server-side objects are touched only on `serverLoop`, the phases only on `clientLoop`.
private final class BenchRun: @unchecked Sendable {
    private let options: TransportOptions
    private let serverLoop: EventLoop
    private let clientLoop: EventLoop
    private let server: MockServer
    private let echoListener: TCPListener
    private let httpAddress: SocketAddress
    private var currentPhase: LoadPhase?
    /// Each figure's measuring time is split into this many slices, interleaved with the others'.
    static let rounds = 4

    init(options: TransportOptions) throws {
        self.options = options
        serverLoop = try EventLoop()
        clientLoop = try EventLoop()
        var configuration = ServerConfiguration()
        configuration.port = 0
        // A figure's connections may still be closing on the server when the next one connects.
        configuration.maxConnections = max(ServerConfiguration().maxConnections, 2 * options.connections + 16)
        server = MockServer(
            loop: serverLoop, configuration: configuration, directory: try configuration.makeDirectory(nowMs: SystemClock().nowMs))
        httpAddress = try server.start()
        let loop = serverLoop
        echoListener = try TCPListener(loop: loop, address: try SocketAddress.resolve(host: "127.0.0.1", port: 0)) {
            fd, _ in
            let connection = Connection(loop: loop, acceptedFD: fd)
            connection.handler = EchoHandler()
            do {
                try connection.activate()
            } catch {
                connection.close(.immediately)
            }
        }
    }

    func start(completion: @escaping @Sendable (Result<TransportReport, BenchError>) -> Void) {
        serverLoop.start()
        clientLoop.start()
        clientLoop.execute { [self] in
            runPhases { result in
                self.stop()
                completion(result)
            }
        }
    }

    /// The figures, measured in `BenchRun.rounds` interleaved slices (echo, HTTP, WebSocket,
    /// echo, …) so that a change of machine load during the run weighs on all three alike.
    private func runPhases(completion: @escaping (Result<TransportReport, BenchError>) -> Void) {
        let echoAddress = echoListener.address
        let httpAddress = httpAddress
        let figures: [Figure] = [
            Figure(name: "TCP echo baseline") { EchoClient(address: echoAddress) },
            Figure(name: "HTTP health") { HealthClient(address: httpAddress) },
            Figure(name: "WebSocket ping") { PingClient(address: httpAddress) },
        ]
        let slices = (0..<BenchRun.rounds).flatMap { _ in figures.indices }
        runSlice(slices[...], of: figures, completion: completion)
    }

    private func runSlice(
        _ remaining: ArraySlice<Int>, of figures: [Figure],
        completion: @escaping (Result<TransportReport, BenchError>) -> Void
    ) {
        guard let index = remaining.first else {
            currentPhase = nil
            completion(.success(TransportReport(
                connections: options.connections, duration: options.duration,
                echoRoundTripsPerSecond: figures[0].perSecond, healthRequestsPerSecond: figures[1].perSecond,
                webSocketRoundTripsPerSecond: figures[2].perSecond)))
            return
        }
        let figure = figures[index]
        let phase = LoadPhase(
            name: figure.name, loop: clientLoop, duration: options.duration / BenchRun.rounds,
            clients: (0..<options.connections).map { _ in figure.makeClient() })
        currentPhase = phase
        phase.run { [self] result in
            switch result {
            case .success(let measured):
                figure.exchanges += measured.exchanges
                figure.seconds += measured.seconds
                // Continue from the loop, outside the finished phase's callbacks.
                clientLoop.scheduleTimer(after: .zero) { [self] in
                    runSlice(remaining.dropFirst(), of: figures, completion: completion)
                }
            case .failure(let error):
                currentPhase = nil
                completion(.failure(error))
            }
        }
    }

    private func stop() {
        serverLoop.execute { [self] in
            server.shutdown()
            echoListener.close()
            serverLoop.stop()
        }
        clientLoop.stop()
    }
}

/// One measured figure: how to make its clients, and its totals over the slices so far.
private final class Figure {
    let name: String
    let makeClient: () -> any LoadClient
    var exchanges = 0
    var seconds = 0.0

    init(name: String, makeClient: @escaping () -> any LoadClient) {
        self.name = name
        self.makeClient = makeClient
    }

    var perSecond: Double { seconds > 0 ? Double(exchanges) / seconds : 0 }
}
