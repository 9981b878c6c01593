import IMockClient
import IMockCommon
import IMockNet

/// `imock soak` (docs/SOAK.md): a bounded mix of logins across every login policy, kicks,
/// renewals, expiries on the virtual clock, messages with and without acks and network faults
/// against a server in this process or an external one, with every message accounted for and
/// the server's memory and descriptors sampled.
public enum SoakRun {
    /// Runs the soak; `progress` gets a line every ten seconds of load.
    public static func run(_ configuration: SoakConfiguration, progress: (@Sendable (String) -> Void)? = nil)
        async throws(SoakFailure) -> SoakReport
    {
        var random = SplitMix64(seed: SplitMix64.derive(configuration.seed, 1))
        let plan = SoakPlan(devices: max(configuration.devices, SoakConfiguration.minimumDevices), random: &random)
        let server: ScenarioServer
        let target: String
        let probe: ProcessProbe?
        var memoryUnavailable: String?
        var child: SoakServerProcess?
        do {
            switch configuration.target {
            case .inProcess:
                server = try await ScenarioServer.start(
                    .inProcess, seedRandom: configuration.seed, tokenWarningPercent: 80,
                    maxWebSocketOutputBytes: SoakDriver.inProcessOutputLimitBytes)
                target = "the in-process server (virtual clock)"
                probe = ProcessProbe()
            case .external(let url, let secret, let pid):
                server = try await ScenarioServer.start(.external(url: url, adminSecret: secret), seedRandom: nil, tokenWarningPercent: 80)
                let found = pid ?? (Self.isLoopback(server.link.endpoint.host) ? ProcessProbe.listeningProcess(port: server.link.endpoint.port) : nil)
                probe = found.map { ProcessProbe(pid: $0) }
                if let found, probe?.residentBytes() == nil {
                    memoryUnavailable = "process \(found) cannot be read (/proc/\(found))"
                } else if found == nil {
                    memoryUnavailable = "the server at \(url) is not a local process this user can read (give --server-pid)"
                }
                target = "imock serve at \(url)" + (found.map { " (pid \($0))" } ?? "")
            case .crashRestart(let executable, let crashes):
                let secret = "soak-" + String(random.next(), radix: 36)
                let process = try SoakServerProcess(
                    executable: executable, adminSecret: secret, outputLimitBytes: SoakDriver.inProcessOutputLimitBytes)
                child = process
                try await process.start()
                let url = "http://127.0.0.1:\(process.port)"
                server = try await ScenarioServer.start(.external(url: url, adminSecret: secret), seedRandom: nil, tokenWarningPercent: 80)
                probe = process.process.map { ProcessProbe(pid: $0.pid) }
                target = "imock serve --data at \(url) (a child, killed with SIGKILL and restarted \(crashes) times)"
            }
        } catch {
            child?.stop()
            throw SoakFailure(Self.describe(error))
        }
        let address: SocketAddress
        do {
            address = try SocketAddress.resolve(host: server.socketEndpoint.host, port: server.socketEndpoint.port)
        } catch {
            await server.stop()
            child?.stop()
            throw SoakFailure("cannot resolve \(server.socketEndpoint.host): \(error)")
        }
        let loop = server.loop
        let link = server.link
        let result: Result<SoakReport, SoakFailure> = await withCheckedContinuation { continuation in
            loop.execute { [memoryUnavailable, child] in
                let driver = SoakDriver(
                    configuration: configuration, plan: plan, loop: loop,
                    http: SoakHTTP(loop: loop, endpoint: link.endpoint, adminSecret: link.adminSecret),
                    socketAddress: address, socketHost: server.socketEndpoint.host, probe: memoryUnavailable == nil ? probe : nil,
                    memoryUnavailable: memoryUnavailable, target: target, serverProcess: child,
                    progress: progress.map { report in { report($0) } })
                driver.start { continuation.resume(returning: $0) }
            }
        }
        await server.stop()
        child?.stop()
        return try result.get()
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case let failure as SoakFailure: failure.description
        case let failure as ScenarioFailure: failure.message
        default: "\(error)"
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
