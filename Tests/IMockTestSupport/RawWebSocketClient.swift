import IMockNet

/// A WebSocket client written byte by byte over a blocking ``RawSocket``: it completes the
/// opening handshake and sends masked frames, and reads only when the test says so (a client
/// that stops reading, which IMockNet's own client never is).
public final class RawWebSocketClient {
    public let socket: RawSocket

    /// Connects and upgrades `path`; throws unless the server answers 101.
    public init(port: UInt16, path: String = "/ws", receiveBufferBytes: Int32? = nil) throws {
        socket = try RawSocket(port: port, receiveBufferBytes: receiveBufferBytes)
        try socket.send(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        var head: [UInt8] = []
        while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
            let byte = try socket.receive(exactly: 1)
            guard !byte.isEmpty else { throw RawSocket.Failure(description: "the server closed during the handshake") }
            head += byte
        }
        let text = String(decoding: head, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 101") else { throw RawSocket.Failure(description: "no upgrade: \(text)") }
    }

    /// Sends one masked text frame.
    public func send(text: String) throws {
        try socket.send(
            WebSocketFrameEncoder.encode(opcode: .text, payload: Array(text.utf8), maskingKey: 0x3779_1A2B))
    }

    /// Sends one masked frame with any opcode and payload.
    public func send(opcode: WebSocketOpcode, payload: [UInt8]) throws {
        try socket.send(WebSocketFrameEncoder.encode(opcode: opcode, payload: payload, maskingKey: 0x0102_0304))
    }
}
