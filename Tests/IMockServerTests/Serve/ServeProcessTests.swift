import Foundation
import IMockNet
import IMockServer
import IMockTestSupport
import Testing

/// `imock serve` as a real process: health, shutdown on SIGTERM.
@Suite("imock serve process")
struct ServeProcessTests {
    @Test("GET /_imock/health reports status, version, uptime, connections and sessions")
    func health() async throws {
        let server = try await IMockProcess.start()
        let health = try HealthProbe.fetch(port: server.port)
        #expect(health.status == "ok")
        #expect(health.version == IMockVersion.current)
        #expect(health.uptimeMs >= 0)
        // The health request's own connection, and no WebSocket session.
        #expect(health.connections == 1)
        #expect(health.sessions == 0)
        try server.stop()
        #expect(server.logText.contains(" info listening address=127.0.0.1:\(server.port) tls=off\n"))
    }

    @Test("every thread of the process blocks SIGTERM and SIGINT (with --data too): a SIGTERM always reaches the loop's signalfd")
    func everyThreadBlocksTerminationSignals() async throws {
        let directory = try ExternalCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await IMockProcess.start(["--data", directory + "/data"])
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/task")
        // The loop's thread, the worker pool's (one per core) and the store's checkpointer.
        #expect(threads.count >= 3, "\(threads)")
        let terminationSignals: UInt64 = 1 << (15 - 1) | 1 << (2 - 1)
        for thread in threads {
            let status = try String(contentsOfFile: "/proc/\(server.pid)/task/\(thread)/status", encoding: .utf8)
            let blocked = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }
                .flatMap { UInt64($0.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
            #expect(blocked.map { $0 & terminationSignals == terminationSignals } == true, "thread \(thread): \(blocked.map { String($0, radix: 16) } ?? "?")")
        }
        try server.stop()
    }

    @Test("--log-format json writes one JSON object per line")
    func jsonLog() async throws {
        let server = try await IMockProcess.start(["--log-format", "json"])
        try server.stop()
        let lines = server.logText.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("{\"ts\":\"") && $0.hasSuffix("}") })
        // The start-up report ends with the listening line (a script waits for it).
        let listening = lines.firstIndex {
            $0.hasSuffix("\"level\":\"info\",\"event\":\"listening\",\"address\":\"127.0.0.1:\(server.port)\",\"tls\":\"off\"}")
        }
        #expect(listening != nil, "\(lines)")
        #expect(lines.prefix(listening ?? 0).allSatisfy { !$0.contains("\"event\":\"stopping\"") })
        #expect(lines.last?.hasSuffix("\"level\":\"info\",\"event\":\"stopping\",\"signal\":\"15\"}") == true)
    }

    @Test("SIGTERM stops the server with exit status 0 while HTTP and WebSocket connections are open")
    func sigtermWithOpenConnections() async throws {
        let server = try await IMockProcess.start()
        let clientLoop = try EventLoop()
        clientLoop.start()
        var sockets: [TestWebSocket] = []
        for _ in 0..<3 {
            sockets.append(try await TestWebSocket.connect(loop: clientLoop, port: server.port))
        }
        // A keep-alive HTTP connection that has been served once and stays open.
        let http = try RawSocket(port: server.port)
        try http.send("GET /_imock/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let first = try http.receiveResponse()
        #expect(first.head.status == 200)
        #expect(String(decoding: first.body, as: UTF8.self).contains("\"sessions\":3"))

        try server.stop()
        #expect(server.logText.contains(" info stopping signal=15\n"))
        // Every WebSocket client gets a Close frame with 1001 "going away" before the socket ends.
        for socket in sockets {
            #expect(await socket.next() == .closed(code: 1001, reason: "server shutting down"))
        }
        #expect(try http.receiveUntilClosed() == [])
        clientLoop.stop()
        await clientLoop.waitUntilStopped()
    }
}
