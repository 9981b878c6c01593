import IMockNet

/// A started server: where its REST API and its session connections are, and its process.
final class ServerUnderTest: Sendable {
    let kind: ServerKind
    /// The REST API (plain HTTP).
    let http: SocketAddress
    /// Where devices connect.
    let sessions: SessionEndpoint
    /// The control API's secret (imock only).
    let adminSecret: String?
    private let process: ChildServer

    init(kind: ServerKind, http: SocketAddress, sessions: SessionEndpoint, adminSecret: String?, process: ChildServer) {
        self.kind = kind
        self.http = http
        self.sessions = sessions
        self.adminSecret = adminSecret
        self.process = process
    }

    /// The server process's resident set size in bytes, when it can be read.
    var residentBytes: Int? { process.residentBytes }

    /// Whether the process still runs.
    var isRunning: Bool { process.isRunning }

    /// The end of the server's log (for failure messages).
    var logTail: String { process.logTail }

    /// Stops the process and waits for it.
    func stop() async { await process.stop() }
}
