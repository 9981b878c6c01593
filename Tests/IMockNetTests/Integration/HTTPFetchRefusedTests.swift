import Glibc
import Testing
@testable import IMockNet

/// `HTTPFetch` against a port nothing listens on.
@Suite("HTTP client: a refused connection")
struct HTTPFetchRefusedTests {
    @Test("a refused connection is connectFailed naming the refusal, not a malformed answer")
    func refused() async throws {
        let loop = try EventLoop()
        // An OS-chosen port, closed again before the loop runs: nothing listens on it.
        let listener = try TCPListener(loop: loop, address: try SocketAddress.resolve(host: "127.0.0.1", port: 0)) { fd, _ in Glibc.close(fd) }
        let port = listener.address.port
        listener.close()
        loop.start()
        defer { loop.stop() }
        let result: Result<(status: Int, body: [UInt8]), HTTPFetchError> = await withCheckedContinuation { done in
            loop.execute {
                HTTPFetch.request(
                    loop: loop, endpoint: ServerEndpoint(host: "127.0.0.1", port: port), tls: nil, method: "GET", path: "/",
                    bearer: nil) { done.resume(returning: $0) }
            }
        }
        guard case .failure(.connectFailed(let reason)) = result else {
            Issue.record("expected connectFailed, got \(result)")
            return
        }
        #expect(reason.contains("Connection refused"), "\(reason)")
    }
}
