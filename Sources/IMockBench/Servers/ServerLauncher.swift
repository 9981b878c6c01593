#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import IMockCommon
import IMockCore
import IMockNet

/// Starts the servers under test in child processes, each fresh for one scenario run.
struct ServerLauncher: Sendable {
    /// The `imock` executable (`serve` is run from it).
    var imockExecutable: String
    /// A command that wraps `imock serve` (e.g. `valgrind --tool=callgrind`), empty for none.
    var wrapper: [String] = []
    /// `bench/python_mock.py`, when found.
    var pythonMock: String?
    /// The nginx executable, when installed.
    var nginx: String?
    /// Where seed files, certificates and logs go.
    var workDirectory: String
    /// How long a server may take to listen (long under valgrind).
    var startTimeout: Duration = .seconds(60)

    static let adminSecret = "bench-admin-secret"

    /// Starts `kind` with `world`; `tls` serves imock's sessions over wss.
    func start(_ kind: ServerKind, world: BenchWorld, tls: Bool = false) async throws(BenchError) -> ServerUnderTest {
        switch kind {
        case .imock: return try await startIMock(world: world, tls: tls)
        case .python: return try await startPython(world: world)
        case .nginx: return try await startNginx()
        }
    }

    private func startIMock(world: BenchWorld, tls: Bool) async throws(BenchError) -> ServerUnderTest {
        let seedPath = workDirectory + "/seed.json"
        try write(world.imockSeed.encoded(), to: seedPath)
        let port = try ChildServer.freePort()
        var arguments = [
            imockExecutable, "serve", "--port", String(port), "--seed", seedPath, "--admin-secret", Self.adminSecret,
            "--log-level", "warning", "--session-idle-timeout", "600", "--max-connections", "100000",
        ]
        var clientTLS: TLSContext?
        if tls {
            let (certificate, key) = try await makeCertificate()
            arguments += ["--tls-cert", certificate, "--tls-key", key]
            do {
                clientTLS = try TLSContext(clientTrusting: nil)
            } catch {
                throw BenchError("cannot make a client TLS context: \(error)")
            }
        }
        let process = try await spawnListening(
            wrapper + arguments, name: "imock serve", logPath: workDirectory + "/imock.log", ports: [port])
        let address = try Self.loopback(port)
        return ServerUnderTest(
            kind: .imock, http: address, sessions: SessionEndpoint(address: address, tls: clientTLS),
            adminSecret: Self.adminSecret, process: process)
    }

    private func startPython(world: BenchWorld) async throws(BenchError) -> ServerUnderTest {
        guard let pythonMock else { throw BenchError("the Python baseline (bench/python_mock.py) was not found") }
        let configPath = workDirectory + "/python-mock.json"
        try write(world.pythonConfig.encoded(), to: configPath)
        let httpPort = try ChildServer.freePort()
        let wsPort = try ChildServer.freePort()
        let process = try await spawnListening(
            ["python3", pythonMock, "--config", configPath, "--http-port", String(httpPort), "--ws-port", String(wsPort)],
            name: "the Python baseline", logPath: workDirectory + "/python-mock.log", ports: [httpPort, wsPort])
        return ServerUnderTest(
            kind: .python, http: try Self.loopback(httpPort), sessions: SessionEndpoint(address: try Self.loopback(wsPort)),
            adminSecret: nil, process: process)
    }

    private func startNginx() async throws(BenchError) -> ServerUnderTest {
        guard let nginx else { throw BenchError("nginx is not installed") }
        let port = try ChildServer.freePort()
        let prefix = workDirectory + "/nginx"
        try? Files.makeDirectories(prefix + "/logs")
        try write(Array(NginxFixedJSON.configuration(port: port, prefix: prefix).utf8), to: prefix + "/nginx.conf")
        let process = try await spawnListening(
            [nginx, "-p", prefix, "-c", prefix + "/nginx.conf", "-e", prefix + "/logs/error.log"], name: "nginx",
            logPath: workDirectory + "/nginx.log", ports: [port])
        let address = try Self.loopback(port)
        return ServerUnderTest(
            kind: .nginx, http: address, sessions: SessionEndpoint(address: address), adminSecret: nil, process: process)
    }

    /// Starts `argv` and waits until it listens on every one of `ports`; stops it when it does not.
    private func spawnListening(
        _ argv: [String], name: String, logPath: String, ports: [UInt16]
    ) async throws(BenchError) -> ChildServer {
        let process = try ChildServer.spawn(argv, name: name, logPath: logPath)
        do {
            try await process.waitUntilListening(on: ports, timeout: startTimeout)
        } catch {
            await process.stop()
            throw error
        }
        return process
    }

    /// A self-signed ECDSA P-256 certificate for 127.0.0.1 (the `openssl` command line).
    private func makeCertificate() async throws(BenchError) -> (certificate: String, key: String) {
        let certificate = workDirectory + "/cert.pem"
        let key = workDirectory + "/key.pem"
        if Files.kind(certificate) != nil, Files.kind(key) != nil {
            return (certificate, key)
        }
        let openssl = try ChildServer.spawn(
            [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ], name: "openssl", logPath: workDirectory + "/openssl.log")
        let deadline = ContinuousClock.now + .seconds(30)
        while openssl.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        guard Files.kind(certificate) != nil else {
            await openssl.stop()
            throw BenchError("openssl could not make a test certificate:\n\(openssl.logTail)")
        }
        return (certificate, key)
    }

    private func write(_ bytes: [UInt8], to path: String) throws(BenchError) {
        do {
            try Files.writeAtomically(path, bytes)
        } catch {
            throw BenchError("cannot write \(path): \(error)")
        }
    }

    static func loopback(_ port: UInt16) throws(BenchError) -> SocketAddress {
        do {
            return try SocketAddress.resolve(host: "127.0.0.1", port: port)
        } catch {
            throw BenchError("\(error)")
        }
    }

    /// The first executable named `name` on PATH (and in /usr/sbin, where Debian puts nginx).
    static func findExecutable(_ name: String, environment: [String: String]) -> String? {
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") + ":/usr/sbin:/usr/local/sbin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
