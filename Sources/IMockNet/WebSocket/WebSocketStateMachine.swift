import IMockCommon
/// The protocol logic of one WebSocket connection after the opening handshake, without I/O.
///
/// The shell feeds received bytes to ``receive(_:)``, calls the `send…`/``close(code:reason:)``
/// methods for outgoing traffic and ``transportClosed()`` when the TCP connection is gone, and
/// performs the returned ``WebSocketAction``s in order.
///
/// Guarantees:
/// - A client masks every frame with a fresh key from `maskingKeyGenerator`; a server never masks.
/// - Pings are answered automatically with a pong carrying the same payload.
/// - Fragmented messages are reassembled (control frames may come between fragments); text is
///   validated as UTF-8 fragment by fragment.
/// - On a protocol violation the machine writes a Close frame with the error's code (unless it
///   already sent one), then emits `.closeTransport` and `.closed` (both roles: a failed
///   connection is dropped at once, RFC 6455 §7.1.7).
/// - `.closed` is emitted exactly once; `.closeTransport` at most once.
///
/// Closing (RFC 6455 §7.1): once this end sent a Close frame, data frames, pings and pongs
/// from the peer are ignored until its Close arrives. When a Close arrives first, the
/// machine answers it with a Close echoing the code (1000 when there was none). When the
/// closing handshake is complete:
/// - a **server** emits `.closeTransport` then `.closed` (the server closes TCP first);
/// - a **client** emits only `.closed` and waits for the server to close the TCP connection
///   (§7.1.1). The shell should apply a timeout (a few seconds) and close the socket itself
///   if the server does not; ``transportClosed()`` then returns the `.closeTransport`.
///
/// Sending (`sendText`, `sendBinary`, `sendPing`, `sendPong`, `close`) after a Close was sent
/// or received returns no action: the data is dropped, as RFC 6455 forbids sending it.
public struct WebSocketStateMachine: Sendable {
    private enum State: Sendable {
        /// Messages flow both ways.
        case open
        /// This end sent a Close frame and waits for the peer's.
        case closeSent
        /// The closing handshake is over or failed, and `.closed` was emitted.
        case closed
    }

    /// Which end of the connection this machine runs.
    public var role: WebSocketRole { settings.role }
    /// The largest accepted frame payload.
    public var maxFrameSize: Int { settings.maxFrameSize }
    /// The largest accepted message (all fragments together).
    public var maxMessageSize: Int { settings.maxMessageSize }

    /// The role, limits and masking keys, held once by the parser (shared by a server's connections).
    private var settings: WebSocketSettings { parser.settings }
    private var parser: WebSocketFrameParser
    private var assembler = WebSocketMessageAssembler()
    private var state = State.open
    private var closeTransportEmitted = false
    /// The Close this end sent to start the closing, behind one reference (a connection that
    /// never closes first pays a word for it, not four).
    private var initiated: InitiatedClose?

    private final class InitiatedClose: Sendable {
        let code: WebSocketCloseCode
        let reason: String

        init(code: WebSocketCloseCode, reason: String) {
            self.code = code
            self.reason = reason
        }
    }

    /// The code and reason of the Close frame this end sent to start the closing (its own
    /// ``close(code:reason:)`` or a protocol error's); nil when it only echoed the peer's.
    public var initiatedClose: (code: WebSocketCloseCode, reason: String)? { initiated.map { ($0.code, $0.reason) } }

    /// A machine for a connection whose opening handshake has just completed.
    /// - Parameters:
    ///   - role: `.server` or `.client`; decides masking and who closes TCP.
    ///   - maxFrameSize: larger incoming frames fail the connection with 1009.
    ///   - maxMessageSize: larger incoming messages fail the connection with 1009.
    ///   - maskingKeyGenerator: returns the 4-byte masking key of each frame a client sends
    ///     (inject a fixed key in tests); unused by a server.
    public init(
        role: WebSocketRole, maxFrameSize: Int = 1 << 20, maxMessageSize: Int = 1 << 20,
        maskingKeyGenerator: @escaping @Sendable () -> [UInt8] = { RandomSource.secure.bytes(4) }
    ) {
        self.init(
            settings: WebSocketSettings(
                role: role, maxFrameSize: maxFrameSize, maxMessageSize: maxMessageSize,
                maskingKeyGenerator: maskingKeyGenerator))
    }

    /// A machine of `settings` (one object for all of a server's connections).
    public init(settings: WebSocketSettings) {
        parser = WebSocketFrameParser(settings: settings)
    }

    /// Whether messages can still be sent (no Close frame sent or received yet).
    public var isOpen: Bool {
        if case .open = state { return true }
        return false
    }

    /// Whether the connection is over (`.closed` was emitted).
    public var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    // MARK: Input

    /// Processes bytes received from the peer.
    public mutating func receive(_ bytes: some Collection<UInt8>) -> [WebSocketAction] {
        receive(Array(bytes))
    }

    /// Processes bytes received from the peer (kept without a copy when nothing is buffered).
    public mutating func receive(_ bytes: [UInt8]) -> [WebSocketAction] {
        if case .closed = state { return [] }
        parser.feed(bytes)
        var actions: [WebSocketAction] = []
        do {
            while !isClosed, let frame = try parser.next() {
                try handle(frame, into: &actions)
            }
        } catch {
            fail(with: error, into: &actions)
        }
        return actions
    }

    /// Reports that the TCP connection is gone (EOF, reset or closed by the shell).
    ///
    /// Before the closing handshake finished this is an abnormal closure: `.closed` with 1006.
    /// Returns `.closeTransport` too unless it was already emitted, so the shell can release
    /// the socket in one place.
    public mutating func transportClosed() -> [WebSocketAction] {
        var actions: [WebSocketAction] = []
        if !closeTransportEmitted {
            closeTransportEmitted = true
            actions.append(.closeTransport)
        }
        switch state {
        case .open, .closeSent:
            let initiatedLocally = if case .closeSent = state { true } else { false }
            state = .closed
            actions.append(.closed(code: .abnormalClosure, reason: "", initiatedLocally: initiatedLocally))
        case .closed:
            break
        }
        return actions
    }

    // MARK: Output

    /// Sends a text message as one frame.
    public mutating func sendText(_ text: String) -> [WebSocketAction] {
        guard isOpen else { return [] }
        return [.write(encode(.text, payload: text.utf8))]  // framed straight from the string's bytes
    }

    /// Sends a binary message as one frame.
    public mutating func sendBinary(_ bytes: some Collection<UInt8>) -> [WebSocketAction] {
        send(.binary, payload: Array(bytes))
    }

    /// Sends a ping; only the first 125 bytes of `payload` are sent (the control frame limit).
    public mutating func sendPing(_ payload: some Collection<UInt8> = [UInt8]()) -> [WebSocketAction] {
        send(.ping, payload: Array(payload.prefix(125)))
    }

    /// Sends an unsolicited pong (a one-way heartbeat); only the first 125 bytes are sent.
    public mutating func sendPong(_ payload: some Collection<UInt8> = [UInt8]()) -> [WebSocketAction] {
        send(.pong, payload: Array(payload.prefix(125)))
    }

    /// Starts the closing handshake with `code` and `reason` (cut to 123 UTF-8 bytes).
    ///
    /// A code that may not appear on the wire (``WebSocketCloseCode/isValidOnWire`` false, e.g.
    /// 1005) sends a Close frame without a body. A second call, or a call after the peer's
    /// Close arrived, does nothing.
    public mutating func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") -> [WebSocketAction] {
        guard isOpen else { return [] }
        state = .closeSent
        initiated = InitiatedClose(code: code, reason: reason)
        return [.write(closeFrame(code: code, reason: reason))]
    }

    // MARK: Internals

    private mutating func send(_ opcode: WebSocketOpcode, payload: [UInt8]) -> [WebSocketAction] {
        guard isOpen else { return [] }
        return [.write(encode(opcode, payload: payload))]
    }

    private mutating func handle(_ frame: WebSocketFrame, into actions: inout [WebSocketAction])
        throws(WebSocketProtocolError)
    {
        let closeSent = !isOpen
        switch frame.opcode {
        case .continuation, .text, .binary:
            guard !closeSent, let message = try assembler.receive(frame, maxMessageSize: settings.maxMessageSize) else { return }
            switch message {
            case .text(let text): actions.append(.text(text))
            case .binary(let bytes): actions.append(.binary(bytes))
            }
        case .ping:
            guard !closeSent else { return }
            actions.append(.write(encode(.pong, payload: frame.payload)))
            actions.append(.ping(frame.payload))
        case .pong:
            guard !closeSent else { return }
            actions.append(.pong(frame.payload))
        case .close:
            let close = try WebSocketClosePayload(parsing: frame.payload)
            if !closeSent {
                actions.append(.write(closeFrame(code: close.code ?? .normalClosure, reason: "")))
            }
            finish(
                code: close.code ?? .noStatusReceived, reason: close.reason, initiatedLocally: closeSent,
                closeTransport: role == .server, into: &actions)
        }
    }

    private mutating func fail(with error: WebSocketProtocolError, into actions: inout [WebSocketAction]) {
        if isOpen {
            initiated = InitiatedClose(code: error.closeCode, reason: error.reason)
            actions.append(.write(closeFrame(code: error.closeCode, reason: error.reason)))
        }
        finish(code: error.closeCode, reason: error.reason, initiatedLocally: true, closeTransport: true, into: &actions)
    }

    private mutating func finish(
        code: WebSocketCloseCode, reason: String, initiatedLocally: Bool, closeTransport: Bool,
        into actions: inout [WebSocketAction]
    ) {
        state = .closed
        assembler.reset()
        if closeTransport && !closeTransportEmitted {
            closeTransportEmitted = true
            actions.append(.closeTransport)
        }
        actions.append(.closed(code: code, reason: reason, initiatedLocally: initiatedLocally))
    }

    private func closeFrame(code: WebSocketCloseCode, reason: String) -> [UInt8] {
        encode(.close, payload: WebSocketClosePayload(code: code, reason: reason).bytes)
    }

    private func encode(_ opcode: WebSocketOpcode, payload: some Collection<UInt8>) -> [UInt8] {
        let maskingKey: UInt32? =
            switch role {
            case .server: nil
            case .client: WebSocketMasking.key(from: settings.maskingKeyGenerator())
            }
        return WebSocketFrameEncoder.encode(opcode: opcode, payload: payload, maskingKey: maskingKey)
    }
}
