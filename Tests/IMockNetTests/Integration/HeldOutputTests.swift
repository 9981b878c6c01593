#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import IMockNet
import IMockTestSupport
import Testing

/// `EventLoop.holdsOutputUntilTurnEnd`: what a turn writes leaves only after the turn-end hooks
/// ran — the group commit of `imock serve --data` answers nothing before its commit.
@Suite("output held until the end of the loop turn")
struct HeldOutputTests {
    /// Loop-confined: what the responder and the turn-end hook saw.
    final class Observations: @unchecked Sendable {
        var clientFD: Int32 = -1
        var answered = 0
        var committed = 0
        /// Per hook run that found new answers: whether the client had received nothing yet.
        var clientHadNothing: [Bool] = []
    }

    /// A server answering every request with "ok", counting answers, and a hook that "commits"
    /// them and looks at the client's socket (without reading) when it does; with
    /// `releaseFirst` the hook writes the held output itself before it looks.
    private func serve(holding: Bool, releaseFirst: Bool = false) async throws -> (LoopbackServer, Observations) {
        let seen = Observations()
        let server = try LoopbackServer { request, _ in
            // The client names its own socket: no hop to the loop between its connect and its
            // request, which a busy test run could stretch past the header timeout.
            if let fd = request.headers["X-Client-FD"].flatMap({ Int32($0) }) { seen.clientFD = fd }
            seen.answered += 1
            return .respond(HTTPResponse(status: 200, body: Array("ok".utf8)))
        }
        let loop = server.loop
        try await loop.submit {
            loop.holdsOutputUntilTurnEnd = holding
            loop.onTurnEnd {
                guard seen.answered > seen.committed else { return }
                if releaseFirst { loop.releaseHeldOutput() }
                seen.committed = seen.answered
                var byte: UInt8 = 0
                let peeked = recv(seen.clientFD, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                seen.clientHadNothing.append(peeked < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            }
        }
        return (server, seen)
    }

    /// Sends one request and, before reading the answer, waits for the hook to have looked at
    /// the client's socket; returns what it saw.
    private func requestAndObserve(_ server: LoopbackServer, _ seen: Observations) async throws -> [Bool] {
        let client = try RawSocket(port: server.port)
        try client.send("GET /x HTTP/1.1\r\nHost: t\r\nX-Client-FD: \(client.fd)\r\n\r\n")
        let deadline = ContinuousClock.now + .seconds(60)
        var observed: [Bool] = []
        // The deadline is read before each look (LoopbackServer.connectionCount(settlingAt:)).
        while observed.isEmpty {
            let past = ContinuousClock.now > deadline
            observed = try await server.loop.submit { seen.clientHadNothing }
            if past { break }
            if observed.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(try client.receiveResponse().head.status == 200)
        return observed
    }

    @Test("pipelined requests of one turn are answered after the turn's hook ran, together")
    func heldUntilHook() async throws {
        let (server, seen) = try await serve(holding: true)
        let client = try RawSocket(port: server.port)
        // Three requests in one write arrive in one read: one turn, one "commit".
        try client.send(String(repeating: "GET /x HTTP/1.1\r\nHost: t\r\nX-Client-FD: \(client.fd)\r\n\r\n", count: 3))
        for _ in 0..<3 {
            let response = try client.receiveResponse()
            #expect(response.head.status == 200)
            #expect(response.body == Array("ok".utf8))
        }
        let result = try await server.loop.submit { (seen.answered, seen.clientHadNothing) }
        #expect(result.0 == 3)
        #expect(!result.1.isEmpty)
        #expect(result.1.allSatisfy { $0 }, "the client received output before the hook ran: \(result.1)")
        await server.stop()
    }

    @Test("held output: the client has nothing while the hook runs")
    func heldSingle() async throws {
        let (server, seen) = try await serve(holding: true)
        let observed = try await requestAndObserve(server, seen)
        #expect(observed == [true], "\(observed)")
        await server.stop()
    }

    @Test("without holding, the answer is on its way before the hook runs (the check above can fail)")
    func notHeld() async throws {
        let (server, seen) = try await serve(holding: false)
        let observed = try await requestAndObserve(server, seen)
        #expect(observed == [false], "\(observed)")
        await server.stop()
    }

    @Test("releaseHeldOutput writes the held output before the turn ends")
    func release() async throws {
        let (server, seen) = try await serve(holding: true, releaseFirst: true)
        let observed = try await requestAndObserve(server, seen)
        #expect(observed == [false], "\(observed)")
        await server.stop()
    }
}
