import IMockCommon
import IMockTestSupport
import Testing

@testable import IMockNet

/// A responder that answers `/later` with `.deferred` (keeping the reply for the test to send)
/// and everything else at once with the path as the body; it records the paths it was asked.
/// Loop-confined (read through `loop.submit`).
final class DeferringResponder: @unchecked Sendable {
    private(set) var asked: [String] = []
    private(set) var replies: [HTTPDeferredReply] = []

    func respond(_ request: HTTPRequest) -> HTTPServerResponse {
        asked.append(request.path)
        guard request.path == "/later" else { return .respond(HTTPResponse(status: 200, body: Array(request.path.utf8))) }
        return .deferred { reply in self.replies.append(reply) }
    }
}

private func deferringServer(_ responder: DeferringResponder) throws -> LoopbackServer {
    let box = UncheckedBox(responder)
    return try LoopbackServer { request, _ in box.value.respond(request) }
}

@Suite("Deferred HTTP responses")
struct DeferredResponseTests {
    @Test("requests pipelined behind a deferred one wait for it and are answered after it, in order")
    func pipelinedInOrder() async throws {
        let responder = DeferringResponder()
        let server = try deferringServer(responder)
        let client = try RawSocket(port: server.port)
        try client.send(
            "GET /later HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(try await server.eventually { responder.replies.count == 1 })
        // The connection reads nothing more while the answer is being worked on.
        try await Task.sleep(for: .milliseconds(100))
        #expect(try await server.loop.submit { responder.asked } == ["/later"])
        // Sent from another thread's work, through the loop.
        WorkerPool.shared.run {
            let answer = HTTPResponse(status: 201, body: Array("worked".utf8))
            server.loop.execute {
                responder.replies[0].send(answer)
                responder.replies[0].send(HTTPResponse(status: 500))  // a second send does nothing
            }
        }
        let text = String(decoding: try client.receiveUntilClosed(), as: UTF8.self)
        let responses = text.split(separator: "HTTP/1.1 ")
        #expect(responses.map { $0.prefix(3) } == ["201", "200", "200"])
        #expect(responses.map { $0.split(separator: "\r\n\r\n").last ?? "" } == ["worked", "/next", "/last"])
        #expect(try await server.loop.submit { responder.asked } == ["/later", "/next", "/last"])
        await server.stop()
    }

    @Test("a client that leaves while its answer is worked on: the answer goes to nobody and the connection is freed")
    func clientLeaves() async throws {
        let responder = DeferringResponder()
        let server = try deferringServer(responder)
        var client: RawSocket? = try RawSocket(port: server.port)
        try client?.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await server.eventually { responder.replies.count == 1 })
        #expect(try await server.loop.submit { responder.replies[0].isAwaited })
        client = nil
        // Reading stops while the answer is worked on, so the departure shows when it is written.
        try await server.loop.submit { responder.replies[0].send(HTTPResponse(status: 200)) }
        #expect(try await server.connectionCount(settlingAt: 0) == 0)
        #expect(try await server.loop.submit { responder.replies[0].isAwaited } == false)
        await server.stop()
    }

    @Test("after a deferred answer the connection stays alive for the next request")
    func keepAliveAfterwards() async throws {
        let responder = DeferringResponder()
        let server = try deferringServer(responder)
        let client = try RawSocket(port: server.port)
        try client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await server.eventually { responder.replies.count == 1 })
        try await server.loop.submit { responder.replies[0].send(HTTPResponse(status: 202)) }
        let first = try client.receiveResponse()
        #expect(first.head.status == 202)
        try client.send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
        let second = try client.receiveResponse()
        #expect(second.head.status == 200 && second.body == Array("/again".utf8))
        await server.stop()
    }
}
