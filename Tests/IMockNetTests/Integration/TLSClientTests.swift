import COpenSSL
import Testing
@testable import IMockNet
import IMockTestSupport

/// IMockNet's own WebSocket client over TLS (wss): SNI, certificate chain and host-name checks.
@Suite("wss with IMockNet's client")
struct TLSClientTests {
    private final class Collector: WebSocketDelegate, @unchecked Sendable {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        /// Whether the connection's handshake resumed a session.
        var resumed: Bool?
        func webSocketDidOpen(_ channel: WebSocketChannel) {
            resumed = channel.connection.tlsSessionResumed
            channel.send(text: "over tls")
        }
        func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) { continuation.yield(text) }
        func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
            continuation.finish()
        }
    }

    /// Connects to 127.0.0.1 with `serverName` as SNI, trusting the test's own certificate
    /// (through `context` when given); the echo and whether the handshake resumed a session.
    private func connect(
        port: UInt16, trusting certificate: String, serverName: String, context: TLSContext? = nil
    ) async throws -> Result<String?, WebSocketClientError> {
        try await connectReportingResumption(port: port, trusting: certificate, serverName: serverName, context: context)
            .map(\.echo)
    }

    private func connectReportingResumption(
        port: UInt16, trusting certificate: String, serverName: String, context: TLSContext? = nil
    ) async throws -> Result<(echo: String?, resumed: Bool?), WebSocketClientError> {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let tls = try context ?? TLSContext(clientTrusting: certificate)
        let address = try SocketAddress.resolve(host: "127.0.0.1", port: port)
        let collector = Collector()
        let box = UncheckedBox(tls)
        let result: Result<Void, WebSocketClientError> = await withCheckedContinuation { done in
            loop.execute {
                WebSocketClient.connect(
                    loop: loop, address: address, host: "\(serverName):\(port)", path: "/ws", tls: box.value,
                    serverName: serverName, delegate: collector
                ) { outcome in done.resume(returning: outcome.map { _ in () }) }
            }
        }
        switch result {
        case .failure(let error): return .failure(error)
        case .success:
            var iterator = collector.stream.makeAsyncIterator()
            return .success((await iterator.next(), collector.resumed))
        }
    }

    @Test("a client context that resumes sessions offers the server's ticket on its next connection, which skips the full handshake")
    func sessionResumption() async throws {
        let (server, certificate, _) = try await LoopbackServer.tlsEcho()
        let resuming = try TLSContext(clientTrusting: certificate, resumesSessions: true)
        let first = try await connectReportingResumption(port: server.port, trusting: certificate, serverName: "localhost", context: resuming).get()
        let second = try await connectReportingResumption(port: server.port, trusting: certificate, serverName: "localhost", context: resuming).get()
        #expect(first.echo == "over tls" && first.resumed == false)
        #expect(second.echo == "over tls" && second.resumed == true, "the ticket of the first connection was offered and accepted")
        // A context that does not keep sessions makes a full handshake every time.
        let plain = try TLSContext(clientTrusting: certificate)
        _ = try await connectReportingResumption(port: server.port, trusting: certificate, serverName: "localhost", context: plain).get()
        let again = try await connectReportingResumption(port: server.port, trusting: certificate, serverName: "localhost", context: plain).get()
        #expect(again.resumed == false)
        await server.stop()
    }

    @Test("each connection offers its own copy of the kept session: one whose session OpenSSL marks not resumable (a resumed TLS 1.3 handshake's end, a drop) leaves it to the next")
    func offeredSessionsAreCopies() async throws {
        let (server, certificate, _) = try await LoopbackServer.tlsEcho()
        let resuming = try TLSContext(clientTrusting: certificate, resumesSessions: true)
        _ = try await connectReportingResumption(port: server.port, trusting: certificate, serverName: "localhost", context: resuming).get()
        let first = TLSSession(context: resuming, role: .client, serverName: "localhost")
        let second = TLSSession(context: resuming, role: .client, serverName: "localhost")
        let offered = try #require(first.session)
        #expect(SSL_SESSION_is_resumable(offered) == 1)
        #expect(offered != second.session)
        // What OpenSSL 3.0 does to a TLS 1.3 client's session at the end of its handshake.
        _ = SSL_CTX_remove_session(resuming.pointer, offered)
        #expect(SSL_SESSION_is_resumable(offered) == 0)
        let third = TLSSession(context: resuming, role: .client, serverName: "localhost")
        #expect(third.session.map { SSL_SESSION_is_resumable($0) } == 1, "the kept session is still resumable")
        await server.stop()
    }

    @Test("a certificate for localhost verifies with SNI localhost and the echo comes back")
    func verifiedHandshake() async throws {
        let (server, certificate, _) = try await LoopbackServer.tlsEcho()
        let outcome = try await connect(port: server.port, trusting: certificate, serverName: "localhost")
        #expect(try outcome.get() == "over tls")
        await server.stop()
    }

    @Test("the same certificate is refused for another host name")
    func hostNameMismatch() async throws {
        let (server, certificate, _) = try await LoopbackServer.tlsEcho()
        let outcome = try await connect(port: server.port, trusting: certificate, serverName: "im.example.com")
        guard case .failure = outcome else {
            Issue.record("a certificate for localhost was accepted for im.example.com")
            return
        }
        await server.stop()
    }
}
