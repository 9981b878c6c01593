import IMockCommon
import IMockCore
import IMockNet
import IMockServer
import IMockTestSupport

/// A `MockServer` on its own loop thread, on an OS-chosen loopback port.
final class InProcessServer: @unchecked Sendable {
    let loop: EventLoop
    let server: MockServer
    let port: UInt16
    private let owner: ServerLoopOwner

    /// `configure` changes anything else of the configuration after the ones given here are set
    /// (`sessionIdleTimeout` is ``PatientTimeouts/sessionIdle`` unless a test is about it). With
    /// `dataDirectory` the server keeps its state in a store there (`--data`). `workers` derive
    /// password hashes (the process's shared pool by default).
    init(
        apps: [ServerConfiguration.InitialApp] = [ServerConfiguration.defaultApp], clock: Timeline.Mode = .system,
        sessionIdleTimeout: Duration = PatientTimeouts.sessionIdle,
        configure: (inout ServerConfiguration) -> Void = { _ in }, dialects: [DialectRoute] = DialectCatalog.served,
        dataDirectory: String? = nil, passwordIterations: Int = 10, workers: WorkerPool = .shared
    ) throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.apps = apps
        configuration.clockMode = clock
        configuration.sessionIdleTimeout = sessionIdleTimeout
        configuration.adminSecret = InProcessServer.adminSecret
        configure(&configuration)
        let directory = try configuration.makeDirectory(
            settings: DirectorySettings(passwordIterations: passwordIterations, random: configuration.makeRandomSource()),
            nowMs: configuration.clockStartMs ?? SystemClock().nowMs)
        let store = try dataDirectory.map { try ServerStore.open(directory: $0, settings: directory.settings) }
        loop = try EventLoop()
        server = MockServer(loop: loop, configuration: configuration, directory: directory, dialects: dialects, store: store, workers: workers)
        port = try server.start().port
        owner = ServerLoopOwner(loop: loop, server: server)
        loop.start()
    }

    static let adminSecret = "test-admin-secret"

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Reads server state on the loop thread.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (MockServer) -> T) async throws -> T {
        let server = LoopBound(self.server, on: loop)
        return try await loop.submit { body(server.value) }
    }

    /// The client id and secret of `key`.
    func credentials(of key: String) async throws -> (id: String, secret: String) {
        try await onLoop { server in
            let app = try! server.directory.app(try! AppKey(parsing: key))
            return (app.clientID, app.clientSecret)
        }
    }

    /// Shuts the server down and stops its loop; a fixture dropped without it stops the loop
    /// anyway (``ServerLoopOwner``).
    func stop() async {
        let server = UncheckedBox(server)
        await owner.stop {
            server.value.shutdown()
            server.value.closeStore()
        }
    }
}
