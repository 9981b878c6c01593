import IMockCommon
import IMockCore
import IMockNet
import IMockServer
import IMockTestSupport
import Synchronization
import Testing

/// Where a test's server runs.
enum ServerKind: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// A `MockServer` on a loop thread of the test process.
    case inProcess
    /// A real `imock serve` child process.
    case process

    var testDescription: String { rawValue }
}

/// A server with the open-registration app `acme#chat` on an OS-chosen loopback port: in-process
/// (after IMockServerTests' InProcessServer) or an `imock serve` child; REST and control helpers.
final class ClientTestServer: @unchecked Sendable {
    static let app = "acme#chat"
    static let adminSecret = "test-admin-secret"
    private let inProcess: (owner: ServerLoopOwner, server: MockServer)?
    private let child: IMockProcess?
    let port: UInt16
    let http: HTTPTestClient

    /// Starts a server of `kind` on `clock`.
    static func start(_ kind: ServerKind, clock: Timeline.Mode = .system) async throws -> ClientTestServer {
        switch kind {
        case .inProcess:
            return try ClientTestServer(clock: clock)
        case .process:
            let child = try await IMockProcess.start([
                "--app", "\(app):open", "--admin-secret", adminSecret, "--clock", clock.rawValue,
            ])
            return ClientTestServer(child: child)
        }
    }

    private init(child: IMockProcess) {
        self.child = child
        inProcess = nil
        port = child.port
        http = HTTPTestClient(port: port)
    }

    /// An in-process server whose `/ws` connections idle out after `sessionIdleTimeout` (a
    /// client on manual timers never pings, and a loaded machine can stall a test for longer
    /// than the server's default 30 s: ``PatientTimeouts``).
    init(clock: Timeline.Mode = .system, sessionIdleTimeout: Duration = PatientTimeouts.sessionIdle) throws {
        var configuration = ServerConfiguration()
        configuration.sessionIdleTimeout = sessionIdleTimeout
        configuration.port = 0
        configuration.apps = [.init(key: ClientTestServer.app, registrationMode: .open)]
        configuration.clockMode = clock
        configuration.adminSecret = ClientTestServer.adminSecret
        let directory = try configuration.makeDirectory(
            settings: DirectorySettings(passwordIterations: 10), nowMs: SystemClock().nowMs)
        let loop = try EventLoop()
        let server = MockServer(loop: loop, configuration: configuration, directory: directory)
        port = try server.start().port
        loop.start()
        inProcess = (ServerLoopOwner(loop: loop, server: server), server)
        child = nil
        http = HTTPTestClient(port: port)
    }

    /// Registers `user` (password "pw") unless told not to, and returns a user token with `ttl` seconds.
    func userToken(_ user: String, ttl: Int = 3600, register: Bool = true) throws -> String {
        try http.userToken(appPath: "/acme/chat", user: user, ttl: ttl, register: register)
    }

    /// A control-API call with the admin secret.
    @discardableResult
    func control(_ method: String, _ path: String, json: String? = nil) throws -> (status: Int, body: [String: JSONAny]) {
        try http.request(method, path, json: json, token: ClientTestServer.adminSecret)
    }

    /// The server clock's time.
    func nowMs() throws -> Int64 {
        Int64(try control("GET", "/_imock/clock").body["nowMs"]?.int ?? -1)
    }

    /// Moves the server's virtual clock; returns the HTTP status.
    @discardableResult
    func advance(ms: Int64) throws -> Int {
        try control("POST", "/_imock/clock/advance", json: #"{"ms":\#(ms)}"#).status
    }

    func stop() async {
        if let child { _ = child.terminate() }
        guard let (owner, server) = inProcess else { return }
        let box = UncheckedBox(server)
        await owner.stop { box.value.shutdown() }
    }
}

/// A clock the test moves in step with the server's virtual clock.
final class SteppedClock: Clock {
    private let time: Mutex<Int64>

    init(startMs: Int64) { time = Mutex(startMs) }

    var nowMs: Int64 { time.withLock { $0 } }

    func set(_ timeMs: Int64) { time.withLock { $0 = timeMs } }
}
