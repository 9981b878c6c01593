#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Dispatch
import IMockCommon
import IMockCore
import IMockNet
import IMockServer
import IMockStore
import Synchronization

/// What `--data` costs a REST registration, as `imock bench` reports it (docs/PERSISTENCE.md):
/// two in-process servers run alongside — one in memory, one with a store in a fresh temporary
/// directory — each on its own event-loop thread, and closed-loop clients on a third register
/// users (`POST /bench/store/users`, open registration) one request at a time per connection.
/// The variants take turns in slices (memory, data, memory, …) so that a change of machine load
/// weighs on both alike; each request is timed from its write to the last byte of its answer.
public enum StoreCostBenchmark {
    /// Why the measurement could not be made.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, naming the variant.
        public var description: String
    }

    /// The app the clients register users in.
    static let appKey = "bench#store"
    /// Slices per variant.
    static let slices = 4

    /// Measures both variants with `connections` clients for `duration` each.
    public static func run(connections: Int, duration: Duration) async throws(Failure) -> StoreCostReport {
        let result = await withCheckedContinuation { continuation in
            start(connections: connections, duration: duration) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Measures both variants, blocking the calling thread (for the command line).
    public static func runBlocking(connections: Int, duration: Duration) throws(Failure) -> StoreCostReport {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<StoreCostReport, Failure>?>(nil)
        start(connections: connections, duration: duration) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.withLock({ $0 }) else { throw Failure(description: "the benchmark ended without a result") }
        return try result.get()
    }

    private static func start(
        connections: Int, duration: Duration, completion: @escaping @Sendable (Result<StoreCostReport, Failure>) -> Void
    ) {
        let run: StoreCostRun
        do {
            run = try StoreCostRun(connections: connections, duration: duration)
        } catch {
            completion(.failure(Failure(description: "cannot start the servers: \(error)")))
            return
        }
        run.start(completion: completion)
    }
}

/// The latencies of one variant.
public struct StoreCostVariant: Sendable, Equatable {
    /// `in memory` or `--data`.
    public var name: String
    /// Every request's latency in nanoseconds, sorted.
    public var latencies: [Int64]
    /// The measured time, summed over the slices.
    public var seconds: Double

    /// A variant's figures (latencies sorted ascending).
    public init(name: String, latencies: [Int64], seconds: Double) {
        self.name = name
        self.latencies = latencies
        self.seconds = seconds
    }

    /// The latency below which `fraction` of the requests finished (nearest rank).
    public func percentile(_ fraction: Double) -> Int64 {
        guard !latencies.isEmpty else { return 0 }
        let rank = Int((fraction * Double(latencies.count)).rounded(.up))
        return latencies[min(max(rank, 1), latencies.count) - 1]
    }

    /// Registrations per second.
    public var perSecond: Double { seconds > 0 ? Double(latencies.count) / seconds : 0 }
}

/// Both variants of one run.
public struct StoreCostReport: Sendable, Equatable {
    /// Clients per variant.
    public var connections: Int
    /// Measuring time per variant.
    public var duration: Duration
    /// The server without a store.
    public var memory: StoreCostVariant
    /// The server with `--data`.
    public var data: StoreCostVariant

    /// A report of both variants.
    public init(connections: Int, duration: Duration, memory: StoreCostVariant, data: StoreCostVariant) {
        self.connections = connections
        self.duration = duration
        self.memory = memory
        self.data = data
    }

    /// The lines `imock bench` prints.
    public var lines: [String] {
        let p99 = data.percentile(0.99) - memory.percentile(0.99)
        return [
            "REST registration (POST /bench/store/users, \(connections) connection\(connections == 1 ? "" : "s"), "
                + "in memory and --data alongside, \(StoreCostReport.seconds(duration)) s each, \(StoreCostReport.buildKind) build):",
            line(memory),
            line(data),
            "--data adds \(StoreCostReport.signed(p99)) ms at p99, \(StoreCostReport.signed(data.percentile(0.5) - memory.percentile(0.5))) ms at p50",
        ]
    }

    private func line(_ variant: StoreCostVariant) -> String {
        "  \(variant.name): \(Int(variant.perSecond.rounded())) registrations/s, p50 "
            + "\(StoreCostReport.milliseconds(variant.percentile(0.5))) ms, p99 \(StoreCostReport.milliseconds(variant.percentile(0.99))) ms, "
            + "max \(StoreCostReport.milliseconds(variant.latencies.last ?? 0)) ms"
    }

    /// Nanoseconds as milliseconds with two decimals: `1_234_567` → `1.23`.
    static func milliseconds(_ nanoseconds: Int64) -> String {
        let hundredths = (nanoseconds + 5_000) / 10_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    #if DEBUG
    static let buildKind = "debug"
    #else
    static let buildKind = "release"
    #endif

    /// `.seconds(2)` → `2`, `.milliseconds(250)` → `0.25`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        guard milliseconds % 1000 != 0 else { return String(milliseconds / 1000) }
        return String(Double(milliseconds) / 1000)
    }

    /// With its sign: `+0.12`, `-0.03`.
    static func signed(_ nanoseconds: Int64) -> String {
        nanoseconds < 0 ? "-" + milliseconds(-nanoseconds) : "+" + milliseconds(nanoseconds)
    }
}

/// One server under test on its own loop thread.
private struct StoreCostServer {
    let name: String
    let loop: EventLoop
    let server: MockServer
    let address: SocketAddress
    let dataDirectory: String?

    init(name: String, withStore: Bool, connections: Int) throws {
        self.name = name
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.apps = [ServerConfiguration.InitialApp(key: StoreCostBenchmark.appKey, registrationMode: .open)]
        configuration.maxConnections = max(ServerConfiguration().maxConnections, 2 * connections + 16)
        let directory = try configuration.makeDirectory(nowMs: SystemClock().nowMs)
        var store: ServerStore?
        if withStore {
            do {
                dataDirectory = try Files.makeTemporaryDirectory(prefix: "imock-bench-store-")
            } catch {
                throw StoreCostBenchmark.Failure(description: "cannot make a temporary directory: \(error)")
            }
            store = try ServerStore.open(directory: dataDirectory!, settings: directory.settings)
        } else {
            dataDirectory = nil
        }
        loop = try EventLoop()
        server = MockServer(loop: loop, configuration: configuration, directory: directory, store: store)
        address = try server.start()
        loop.start()
    }

    func stop() {
        let server = UncheckedServer(server: server)
        let loop = loop
        loop.execute {
            server.server.shutdown()
            server.server.closeStore()
            loop.stop()
        }
    }

    /// Removes a store's files (once its server has stopped).
    static func removeData(_ dataDirectory: String) {
        for file in ["imock.sqlite", "imock.sqlite-wal", "imock.sqlite-shm", "imock.lock"] {
            unlink(dataDirectory + "/" + file)
        }
        rmdir(dataDirectory)
    }
}

/// Carries the loop-confined server into a task that runs on its loop.
private struct UncheckedServer: @unchecked Sendable {
    let server: MockServer
}

/// The loops and the slices of one run; the slices run on `clientLoop`.
private final class StoreCostRun: @unchecked Sendable {
    private let connections: Int
    private let duration: Duration
    private let servers: [StoreCostServer]
    private let clientLoop: EventLoop
    private var latencies: [[Int64]]
    private var seconds: [Double]
    private var clientSerial = 0

    init(connections: Int, duration: Duration) throws {
        self.connections = connections
        self.duration = duration
        servers = [
            try StoreCostServer(name: "in memory", withStore: false, connections: connections),
            try StoreCostServer(name: "--data (SQLite WAL, group commit per loop turn)", withStore: true, connections: connections),
        ]
        clientLoop = try EventLoop()
        latencies = [[], []]
        seconds = [0, 0]
    }

    func start(completion: @escaping @Sendable (Result<StoreCostReport, StoreCostBenchmark.Failure>) -> Void) {
        clientLoop.start()
        clientLoop.execute { [self] in
            let order = (0..<StoreCostBenchmark.slices).flatMap { _ in servers.indices }
            runSlices(order[...]) { result in
                self.finish(result, completion: completion)
            }
        }
    }

    private func runSlices(_ remaining: ArraySlice<Int>, completion: @escaping (StoreCostBenchmark.Failure?) -> Void) {
        guard let index = remaining.first else { return completion(nil) }
        runSlice(index) { [self] failure in
            if let failure { return completion(failure) }
            // Go on from the loop, outside the finished slice's callbacks.
            clientLoop.scheduleTimer(after: .zero) { [self] in runSlices(remaining.dropFirst(), completion: completion) }
        }
    }

    /// Connects every client to server `index`, lets them register for a slice, closes them.
    private func runSlice(_ index: Int, completion: @escaping (StoreCostBenchmark.Failure?) -> Void) {
        let server = servers[index]
        let clients = (0..<connections).map { _ -> RegistrationClient in
            clientSerial += 1
            return RegistrationClient(address: server.address, path: "/bench/store", namePrefix: "c\(clientSerial)")
        }
        var open = 0
        var measuring = false
        var done = false
        var started = MonotonicInstant.now()
        let end = { [self] (failure: StoreCostBenchmark.Failure?) in
            guard !done else { return }
            done = true
            measuring = false
            if failure == nil {
                seconds[index] += Double(MonotonicInstant.now().nanoseconds - started.nanoseconds) / 1e9
            }
            for client in clients { client.close() }
            completion(failure.map { StoreCostBenchmark.Failure(description: "\(server.name): \($0.description)") })
        }
        for client in clients {
            client.onAnswer = { [self] result in
                switch result {
                case .success(let latency):
                    guard measuring else { return }
                    latencies[index].append(latency)
                    client.register()
                case .failure(let failure):
                    end(failure)
                }
            }
            client.open(loop: clientLoop) { [self] failure in
                if let failure { return end(StoreCostBenchmark.Failure(description: failure)) }
                open += 1
                guard open == clients.count else { return }
                started = MonotonicInstant.now()
                measuring = true
                clientLoop.scheduleTimer(after: duration / StoreCostBenchmark.slices) { end(nil) }
                for client in clients { client.register() }
            }
        }
    }

    private func finish(
        _ failure: StoreCostBenchmark.Failure?,
        completion: @escaping @Sendable (Result<StoreCostReport, StoreCostBenchmark.Failure>) -> Void
    ) {
        for server in servers { server.stop() }
        clientLoop.stop()
        let report = StoreCostReport(
            connections: connections, duration: duration,
            memory: StoreCostVariant(name: servers[0].name, latencies: latencies[0].sorted(), seconds: seconds[0]),
            data: StoreCostVariant(name: servers[1].name, latencies: latencies[1].sorted(), seconds: seconds[1]))
        let result: Result<StoreCostReport, StoreCostBenchmark.Failure>
        if let failure {
            result = .failure(failure)
        } else if report.memory.latencies.isEmpty || report.data.latencies.isEmpty {
            result = .failure(StoreCostBenchmark.Failure(description: "no registration completed"))
        } else {
            result = .success(report)
        }
        // The store's files go once its loop has closed it.
        let loops = servers.map(\.loop)
        let directories = servers.compactMap(\.dataDirectory)
        Task {
            for loop in loops { await loop.waitUntilStopped() }
            for directory in directories { StoreCostServer.removeData(directory) }
            completion(result)
        }
    }
}
