import CIMockShims
import Dispatch
import IMockCore
import IMockCore
import IMockNet
import Synchronization

/// `imock bench`: an in-process `MockServer` (plus a raw TCP echo listener for the baseline)
/// on one event-loop thread, closed-loop clients on another, three figures measured in turn.
public enum Benchmark {
    /// Measures the three figures and returns them.
    public static func run(_ options: BenchOptions) async throws(BenchError) -> BenchReport {
        let result = await withCheckedContinuation { continuation in
            start(options) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Measures the three figures, blocking the calling thread (for the command line).
    public static func runBlocking(_ options: BenchOptions) throws(BenchError) -> BenchReport {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<BenchReport, BenchError>?>(nil)
        start(options) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.withLock({ $0 }) else { throw BenchError("the benchmark ended without a result") }
        return try result.get()
    }

    private static func start(
        _ options: BenchOptions, completion: @escaping @Sendable (Result<BenchReport, BenchError>) -> Void
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
    private let options: BenchOptions
    private let serverLoop: EventLoop
    private let clientLoop: EventLoop
    private let server: MockServer
    private let echoListener: TCPListener
    private let httpAddress: SocketAddress
    private var currentPhase: LoadPhase?
    private var figures: [Double] = []

    init(options: BenchOptions) throws {
        self.options = options
        serverLoop = try EventLoop()
        clientLoop = try EventLoop()
        var serveOptions = ServeOptions()
        serveOptions.port = 0
        // A figure's connections may still be closing on the server when the next one connects.
        serveOptions.maxConnections = max(ServeOptions().maxConnections, 2 * options.connections + 16)
        server = MockServer(loop: serverLoop, options: serveOptions, directory: try serveOptions.makeDirectory(nowMs: SystemClock().nowMs))
        httpAddress = try server.start()
        let loop = serverLoop
        echoListener = try TCPListener(loop: loop, address: try SocketAddress.resolve(host: "127.0.0.1", port: 0)) {
            fd, peer in
            let connection = Connection(loop: loop, acceptedFD: fd, peer: peer)
            connection.handler = EchoHandler()
            do {
                try connection.activate()
            } catch {
                connection.close(.immediately)
            }
        }
    }

    func start(completion: @escaping @Sendable (Result<BenchReport, BenchError>) -> Void) {
        serverLoop.start()
        clientLoop.start()
        clientLoop.execute { [self] in
            runPhases { result in
                self.stop()
                completion(result)
            }
        }
    }

    /// The phases in order: the baseline first, then HTTP, then WebSocket.
    private func runPhases(completion: @escaping (Result<BenchReport, BenchError>) -> Void) {
        let echoAddress = echoListener.address
        let httpAddress = httpAddress
        let phases: [(String, () -> any LoadClient)] = [
            ("TCP echo baseline", { EchoClient(address: echoAddress) }),
            ("HTTP health", { HealthClient(address: httpAddress) }),
            ("WebSocket ping", { PingClient(address: httpAddress) }),
        ]
        runPhase(phases[...], completion: completion)
    }

    private func runPhase(
        _ remaining: ArraySlice<(String, () -> any LoadClient)>,
        completion: @escaping (Result<BenchReport, BenchError>) -> Void
    ) {
        guard let (name, makeClient) = remaining.first else {
            currentPhase = nil
            completion(.success(BenchReport(
                connections: options.connections, duration: options.duration, echoRoundTripsPerSecond: figures[0],
                healthRequestsPerSecond: figures[1], webSocketRoundTripsPerSecond: figures[2])))
            return
        }
        let phase = LoadPhase(
            name: name, loop: clientLoop, duration: options.duration,
            clients: (0..<options.connections).map { _ in makeClient() })
        currentPhase = phase
        phase.run { [self] result in
            switch result {
            case .success(let perSecond):
                figures.append(perSecond)
                // Continue from the loop, outside the finished phase's callbacks.
                clientLoop.scheduleTimer(after: .zero) { [self] in
                    runPhase(remaining.dropFirst(), completion: completion)
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
