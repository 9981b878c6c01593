import CIMockShims
import FoundationEssentials
import IMockNet
import IMockTestSupport
import Testing

/// One `imock serve` process under many connections, and out of descriptors.
@Suite("imock serve capacity")
struct ServeCapacityTests {
    static let webSocketCount = 2_000
    static let connectBatch = 200

    private struct Pong: Decodable, Equatable {
        var op: String
        var id: String
        var serverTime: Int64
    }

    @Test("one process holds 2,000 concurrent WebSocket connections and answers a ping op on each")
    func twoThousandWebSockets() async throws {
        // Both ends live on this machine: 2,000 client sockets here, 2,000 in the child (which
        // inherits this limit and raises its own as well).
        let limit = cimock_raise_nofile_limit(65_536)
        try #require(limit >= 2 * Self.webSocketCount + 200, "open-file soft limit is only \(limit)")
        let server = try await IMockProcess.start()
        let loops = [try EventLoop(), try EventLoop()]
        for loop in loops { loop.start() }

        var sockets: [TestWebSocket] = []
        sockets.reserveCapacity(Self.webSocketCount)
        // Batches keep the handshakes in flight well under the listen backlog.
        for batchStart in stride(from: 0, to: Self.webSocketCount, by: Self.connectBatch) {
            let batch = try await withThrowingTaskGroup(of: (Int, TestWebSocket).self) { group in
                for index in batchStart..<min(batchStart + Self.connectBatch, Self.webSocketCount) {
                    let loop = loops[index % loops.count]
                    group.addTask { (index, try await TestWebSocket.connect(loop: loop, port: server.port)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.0 < $1.0 }.map(\.1)
            }
            sockets += batch
        }
        #expect(sockets.count == Self.webSocketCount)

        let open = try HealthProbe.fetch(port: server.port)
        #expect(open.sessions == Self.webSocketCount)
        #expect(open.connections == Self.webSocketCount + 1)

        for (index, socket) in sockets.enumerated() {
            socket.send(text: "{\"op\":\"ping\",\"id\":\"\(index)\"}")
        }
        var pongs = 0
        for (index, socket) in sockets.enumerated() {
            guard case .text(let text)? = await socket.next() else {
                Issue.record("connection \(index) got no text frame")
                continue
            }
            let pong = try JSONDecoder().decode(Pong.self, from: Data(text.utf8))
            #expect(pong.op == "pong" && pong.id == "\(index)" && pong.serverTime > 0, "\(text)")
            pongs += 1
        }
        #expect(pongs == Self.webSocketCount)

        for socket in sockets { socket.close(code: 1000, reason: "done") }
        var normalCloses = 0
        for socket in sockets {
            if case .closed(1000, _)? = await socket.next() { normalCloses += 1 }
        }
        #expect(normalCloses == Self.webSocketCount)
        // The server forgets a session when it answers the client's Close, before the client sees it.
        let closed = try HealthProbe.fetch(port: server.port)
        #expect(closed.sessions == 0)
        // TCP connections end once each client's FIN arrives.
        let drained = try await HealthProbe.eventually(port: server.port) { $0.connections == 1 }
        #expect(drained.connections == 1)

        try server.stop()
        for loop in loops {
            loop.stop()
            await loop.waitUntilStopped()
        }
    }

    @Test("the accept loop survives EMFILE: with 64 descriptors the server keeps serving 100 clients")
    func acceptSurvivesDescriptorExhaustion() async throws {
        let server = try await IMockProcess.start(openFileLimit: 64)
        let clientCount = 100

        // More clients than the child has descriptors: it accepts until EMFILE, the rest wait
        // in the listen backlog while the listener backs off.
        var idle: [RawSocket] = []
        for _ in 0..<clientCount { idle.append(try RawSocket(port: server.port)) }
        idle.removeAll()
        // The back-off is at most 1 s; then a new client is accepted and answered.
        let health = try await HealthProbe.eventually(port: server.port) { $0.status == "ok" }
        #expect(health.status == "ok")

        // Every client of a second wave is answered, although the child can hold only about 50
        // of them at once: each answered client frees a descriptor for one in the backlog.
        var requests: [RawSocket] = []
        for _ in 0..<clientCount {
            let socket = try RawSocket(port: server.port)
            try socket.send("GET /_imock/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            requests.append(socket)
        }
        var answered = 0
        for socket in requests {
            let response = try socket.receiveResponse()
            if response.head.status == 200 { answered += 1 }
        }
        #expect(answered == clientCount)
        requests.removeAll()

        try server.stop()
    }
}
