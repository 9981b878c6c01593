import Dispatch
import IMockCommon
import IMockNet
import Synchronization

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// An `imock run --server` stopped by SIGINT or SIGTERM (Ctrl-C, a cancelled CI job) removes the
/// apps its running fixtures had created on the shared server — which also clears their faults
/// and ends their sessions (`DELETE /_imock/apps/{org}/{app}`) — then exits with 128 + the
/// signal. Without this, every interrupted run left its apps, faults and black-holed sessions
/// behind. An `--app-key` app is not removed (it is the team's); it keeps what the fixture set.
public enum InterruptCleanup {
    /// The shared server and the apps on it that fixtures created and have not removed yet.
    private struct Registry: Sendable {
        var endpoint: ServerEndpoint
        var adminSecret: String
        var apps: Set<String> = []
    }

    private static let registry = Mutex<Registry?>(nil)
    /// The signal sources, kept alive; written once, by ``install()`` before the run starts.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// A fixture created app `path` (`org/app`) on the server at `endpoint`.
    static func created(_ path: String, endpoint: ServerEndpoint, adminSecret: String) {
        registry.withLock { registry in
            if registry == nil { registry = Registry(endpoint: endpoint, adminSecret: adminSecret) }
            registry?.apps.insert(path)
        }
    }

    /// The fixture removed app `path` itself.
    static func removed(_ path: String) {
        registry.withLock { _ = $0?.apps.remove(path) }
    }

    /// From now on SIGINT and SIGTERM remove the pending apps, then end the process with
    /// 128 + the signal. Call once, from the command line's run.
    public static func install() {
        let queue = DispatchQueue(label: "imock.run.interrupt")
        var installed: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            _ = Glibc.signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                let left = removePending()
                StandardError.write(
                    "imock run: interrupted; removed \(left.removed) app\(left.removed == 1 ? "" : "s") the running fixtures had created"
                        + (left.failed > 0 ? ", \(left.failed) could not be removed" : ""))
                exit(128 + signalNumber)
            }
            source.resume()
            installed.append(source)
        }
        sources = installed
    }

    /// Deletes every pending app, each within HTTPFetch's timeout; how many went and how many not.
    static func removePending() -> (removed: Int, failed: Int) {
        guard let registry = registry.withLock({ $0 }), !registry.apps.isEmpty,
            let client = try? BlockingHTTP(endpoint: registry.endpoint)
        else { return (0, 0) }
        defer { client.close() }
        var removed = 0
        for path in registry.apps.sorted() {
            guard case .success(let answer) = client.call("DELETE", "/_imock/apps/\(path)", bearer: registry.adminSecret),
                [200, 404].contains(answer.status)
            else { continue }
            removed += 1
            InterruptCleanup.removed(path)
        }
        return (removed, registry.apps.count - removed)
    }
}
