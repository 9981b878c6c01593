import FoundationEssentials
import IMockNet

/// One `/ws` connection speaking the imock protocol: JSON text frames, one object per frame
/// with an `op`; requests carry an `id` that the reply echoes (docs/PROTOCOL.md).
///
/// So far it answers `ping` with `pong` and refuses everything else with an `error` frame; login,
/// kicks and the token lifecycle come with the connection issue.
final class SessionConnection: WebSocketDelegate {
    private unowned let server: MockServer
    let peer: SocketAddress?
    private var channelID: UInt64 = 0

    init(server: MockServer, peer: SocketAddress?) {
        self.server = server
        self.peer = peer
    }

    func webSocketDidOpen(_ channel: WebSocketChannel) {
        channelID = channel.id
        server.sessionOpened(self, id: channel.id)
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveText text: String) {
        channel.send(text: ProtocolFrames.reply(to: text, serverTimeMs: Timestamp.nowEpochMilliseconds()))
    }

    func webSocket(_ channel: WebSocketChannel, didReceiveBinary bytes: [UInt8]) {
        channel.close(code: .unsupportedData, reason: "the imock protocol uses text frames")
    }

    func webSocketDidClose(_ channel: WebSocketChannel, code: WebSocketCloseCode, reason: String) {
        server.sessionClosed(id: channelID, code: code)
    }
}

/// Builds the replies of the imock protocol.
enum ProtocolFrames {
    private struct Request: Decodable {
        var op: String
        var id: String?
    }

    private struct Pong: Encodable {
        var op = "pong"
        var id: String?
        var serverTime: Int64
    }

    private struct ErrorFrame: Encodable {
        var op = "error"
        var id: String?
        var error: String
        var message: String
    }

    /// The reply to one client frame.
    static func reply(to text: String, serverTimeMs: Int64) -> String {
        let request: Request
        do {
            request = try JSONDecoder().decode(Request.self, from: Data(text.utf8))
        } catch {
            return encode(ErrorFrame(id: nil, error: "bad_frame", message: "a frame must be a JSON object with a string 'op'"))
        }
        switch request.op {
        case "ping":
            return encode(Pong(id: request.id, serverTime: serverTimeMs))
        default:
            return encode(ErrorFrame(id: request.id, error: "unknown_op", message: "unknown op '\(request.op)'"))
        }
    }

    private static func encode(_ value: some Encodable) -> String {
        String(decoding: JSONCoding.encode(value), as: UTF8.self)
    }
}
