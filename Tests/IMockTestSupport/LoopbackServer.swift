import IMockNet

/// An `HTTPServer` on its own event-loop thread, listening on an OS-chosen loopback port.
public final class LoopbackServer: @unchecked Sendable {
    public let loop: EventLoop
    public let server: HTTPServer
    public let address: SocketAddress
    public var port: UInt16 { address.port }

    public init(
        host: String = "127.0.0.1", configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        responder: @escaping HTTPResponder
    ) throws {
        loop = try EventLoop()
        server = HTTPServer(loop: loop, configuration: configuration, responder: responder)
        address = try server.listen(host: host, port: 0)
        loop.start()
    }

    /// A server answering every request with `200` and the request body echoed, and upgrading
    /// `/ws` to an echo WebSocket.
    public static func echo(host: String = "127.0.0.1", configuration: HTTPServerConfiguration = HTTPServerConfiguration()) throws -> LoopbackServer {
        try LoopbackServer(host: host, configuration: configuration) { request, _ in
            if request.path == "/ws" { return .upgradeToWebSocket(delegate: EchoWebSocket()) }
            var headers = HTTPHeaders()
            headers.add("X-Method", request.method)
            headers.add("X-Path", request.path)
            return .respond(HTTPResponse(status: 200, headers: headers, body: request.body))
        }
    }

    /// The number of open connections, read on the loop.
    public func connectionCount() async throws -> Int {
        let server = UncheckedBox(server)
        return try await loop.submit { server.value.connectionCount }
    }

    /// The connection count once it reaches `expected`, or the first count read after `limit`.
    /// A closing connection stays counted until the peer's FIN ends its lingering, which can
    /// land just after the client saw its close.
    ///
    /// The deadline is read before each count is asked: a loaded run can hold this task back
    /// for many seconds between the loop reading a count and the task resuming with it, and a
    /// count read before the deadline says nothing about the time after it.
    public func connectionCount(settlingAt expected: Int, limit: Duration = .seconds(5)) async throws -> Int {
        let deadline = ContinuousClock.now + limit
        while true {
            let past = ContinuousClock.now > deadline
            let count = try await connectionCount()
            if count == expected || past { return count }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Polls `condition` on the loop every 10 ms for up to 5 s; whether it came true.
    public func eventually(_ condition: @escaping @Sendable () -> Bool) async throws -> Bool {
        for _ in 0..<500 {
            if try await loop.submit(condition) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// An echo server (``echo(host:configuration:)``) over TLS, with a self-signed certificate
    /// for localhost and 127.0.0.1 made by the openssl CLI in a fresh temporary directory, and
    /// the certificate's path (to trust) and the directory.
    public static func tlsEcho() async throws -> (server: LoopbackServer, certificate: String, directory: String) {
        let directory = try ExternalCommand.temporaryDirectory()
        let (certificate, key) = try await ExternalCommand.makeSelfSignedCertificate(in: directory)
        var configuration = HTTPServerConfiguration()
        configuration.tls = try TLSContext(serverCertificatePath: certificate, privateKeyPath: key)
        return (try LoopbackServer.echo(configuration: configuration), certificate, directory)
    }

    public func stop() async {
        let server = UncheckedBox(server)
        loop.execute { server.value.shutdown() }
        loop.stop()
        await loop.waitUntilStopped()
    }
}

/// Carries a loop-confined object into a closure that runs on its loop.
public struct UncheckedBox<Value>: @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}

/// Echoes every message; `close <code> <reason>` makes the server close with that code.
public final class EchoWebSocket: WebSocketDelegate {
    public func webSocketDidOpen(_ channel: WebSocketChannel) {}

    public func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        if text.hasPrefix("close ") {
            let parts = text.split(separator: " ", maxSplits: 2).map(String.init)
            let code = UInt16(parts[1]) ?? 1000
            channel.close(code: WebSocketCloseCode(code), reason: parts.count > 2 ? parts[2] : "")
            return
        }
        channel.send(text: text)
    }

    public func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        channel.send(binary: bytes)
    }

    public func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {}
}
