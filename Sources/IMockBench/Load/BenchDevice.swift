import IMockNet
import IMockWire

/// Where the devices of a run connect.
struct SessionEndpoint: Sendable {
    var address: SocketAddress
    /// The Host header (and SNI) of the upgrade.
    var host = "127.0.0.1"
    /// A client TLS context for `wss`, nil for `ws`.
    var tls: TLSContext?
}

/// One simulated device: a WebSocket connection speaking one ``BenchWire`` dialect.
/// Loop-confined to the client loop.
final class BenchDevice: WebSocketDelegate {
    let login: BenchLogin
    private(set) var wire: any BenchWire
    private(set) var channel: WebSocketChannel?
    /// Every server event after the login, in order.
    var onEvent: ((BenchDevice, BenchEvent) -> Void)?
    /// Called once when the connection is over (either side closed it), with the close code.
    var onClose: ((BenchDevice, UInt16) -> Void)?
    /// Called when the login has just been sent (the socket is open).
    var onLoginSent: ((BenchDevice) -> Void)?
    private(set) var isClosed = false
    /// The code of the `kicked` frame this device got, if it got one.
    private(set) var kickedCode: Int?
    private(set) var closeCode: UInt16?
    private var loginCompletion: ((Result<Void, BenchError>) -> Void)?

    init(login: BenchLogin, wire: any BenchWire.Type) {
        self.login = login
        self.wire = wire.init()
    }

    /// Connects, logs in and reports once `login.ok` (or its dialect's equivalent) arrived.
    func connectAndLogIn(loop: EventLoop, endpoint: SessionEndpoint, completion: @escaping (Result<Void, BenchError>) -> Void) {
        loginCompletion = completion
        let upgrade = wire.upgrade(for: login)
        WebSocketClient.connect(
            loop: loop, address: endpoint.address, host: endpoint.host, path: upgrade.path, tls: endpoint.tls,
            headers: upgrade.headers, delegate: self
        ) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let channel): self.channel = channel
            case .failure(let error): self.finishLogin(.failure(BenchError("\(self.login.user): \(error)")))
            }
        }
    }

    /// Sends one message (dropped once the connection is closing).
    func send(_ message: WireMessage) {
        switch message {
        case .text(let text): channel?.send(text: text)
        case .binary(let bytes): channel?.send(binary: bytes)
        }
    }

    /// Sends what the dialect builds from this device's state; events its wire answers by
    /// itself (an msync or OpenIM `ack`) follow as if the server had sent them.
    func send(_ build: (inout any BenchWire) -> BenchWireOutput) {
        perform(build(&wire))
    }

    private func perform(_ output: BenchWireOutput) {
        for message in output.send { send(message) }
        deliver(output.events)
    }

    /// Drops the connection without a closing handshake (the end of a phase).
    func drop() {
        guard !isClosed else { return }
        channel?.abort(.immediately)
    }

    private func finishLogin(_ result: Result<Void, BenchError>) {
        guard let completion = loginCompletion else { return }
        loginCompletion = nil
        completion(result)
    }

    // MARK: WebSocketDelegate

    func webSocketDidOpen(_ channel: WebSocketChannel) {
        self.channel = channel
        let output = wire.login(login)
        onLoginSent?(self)
        perform(output)
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        deliver(.text(text))
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        deliver(.binary(bytes))
    }

    private func deliver(_ message: WireMessage) {
        perform(wire.receive(message))
    }

    private func deliver(_ events: [BenchEvent]) {
        for event in events {
            if case .malformed(let reason) = event {
                finishLogin(.failure(BenchError("\(login.user): a malformed server message: \(reason)")))
                drop()
                return
            }
            if loginCompletion != nil {
                switch event {
                case .loginAccepted:
                    finishLogin(.success(()))
                    continue
                case .loginRefused(let code):
                    finishLogin(.failure(BenchError("\(login.user): login refused with \(code)")))
                    continue
                default:
                    break
                }
            }
            if case .kicked(let code) = event { kickedCode = code }
            onEvent?(self, event)
        }
    }

    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        isClosed = true
        closeCode = code.rawValue
        self.channel = nil
        finishLogin(.failure(BenchError("\(login.user): closed with \(code.rawValue) \(reason) before the login was accepted")))
        let onClose = self.onClose
        self.onClose = nil
        onEvent = nil
        onClose?(self, code.rawValue)
    }
}
