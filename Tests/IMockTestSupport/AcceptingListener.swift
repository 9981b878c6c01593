import IMockNet

extension TCPListener {
    /// A listener on an OS-chosen loopback port whose accepted connections are handled by
    /// `handler` (one handler for all of them), for tests that play the server's part by hand.
    public static func accepting(on loop: EventLoop, handler: any ConnectionHandler) throws -> TCPListener {
        try TCPListener(loop: loop, address: try SocketAddress.resolve(host: "127.0.0.1", port: 0)) { fd, _ in
            let connection = Connection(loop: loop, acceptedFD: fd)
            connection.handler = handler
            try? connection.activate()
        }
    }
}
