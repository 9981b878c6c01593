import IMockCommon
import IMockCore

/// msync inside SockJS's WebSocket transport, as the full browser builds (`Agora-chat.js`,
/// `Easemob-chat.js`) speak it: the server opens with `o`; client frames are JSON arrays of
/// base64 envelopes (`["<base64 MSync>", …]`), server frames `a["<base64 MSync>", …]`; a
/// close is announced with `c[code,"reason"]`. Underneath it is ``MsyncDialect`` with base64
/// text framing. Heartbeat frames (`h`) are not sent: the SDK's own UNREAD heartbeat keeps the
/// connection alive.
public struct SockJSMsyncDialect: WireDialect {
    /// The SockJS base path served (`{base}/info`, `{base}/{server}/{session}/websocket`): the
    /// path the SDKs derive from their DNS document, `http(s)://host/ws`.
    public static let basePath = "/ws"
    /// The router pattern of a session's WebSocket under ``basePath``.
    public static let sessionPattern = basePath + "/{server}/{session}/websocket"

    public var name: String { "msync" }
    private var inner: MsyncDialect

    /// A dialect for one connection.
    public init(pageSize: Int = MsyncDialect.defaultPageSize) {
        inner = MsyncDialect(pageSize: pageSize, framing: .base64Text)
    }

    public var greeting: [WireMessage] { [.text(SockJSFrame.open.text)] }

    public mutating func observe(serverTimeMs: Int64) { inner.observe(serverTimeMs: serverTimeMs) }

    public var deliveryConfirmation: DeliveryConfirmation { inner.deliveryConfirmation }

    /// The chat messages the inbox holds for the device (pulled or not, not confirmed).
    public var heldMessages: [ChatMessage] { inner.heldMessages }

    public var minimumIdleTimeout: Duration? { inner.minimumIdleTimeout }

    public mutating func decode(_ message: WireMessage) -> [DialectInput] {
        guard case .text(let text) = message else {
            return closing(WireClose(code: 1003, reason: "sockjs: the WebSocket transport carries text frames"))
        }
        let envelopes: [String]
        do throws(SockJSError) {
            envelopes = try SockJSClientFrame.messages(in: text.utf8)
        } catch {
            let frame = error.closeFrame
            guard case .close(let code, let reason) = frame else { return [] }
            return [.reply(.text(frame.text)), .close(WireClose(code: UInt16(code), reason: reason))]
        }
        var inputs: [DialectInput] = []
        for envelope in envelopes {
            for input in inner.decode(.text(envelope)) {
                switch input {
                case .command: inputs.append(input)
                case .reply(let reply): inputs.append(.reply(Self.framed([reply])))
                case .replyCarrying(let reply, let ids): inputs.append(.replyCarrying(Self.framed([reply]), messageIds: ids))
                case .close(let close): return inputs + closing(close)
                }
            }
        }
        return inputs
    }

    public mutating func encode(reply: SessionReply, tag: RequestTag?) -> [WireMessage] {
        Self.batch(inner.encode(reply: reply, tag: tag))
    }

    public mutating func encode(push: SessionPush) -> [WireMessage] {
        Self.batch(inner.encode(push: push))
    }

    /// The goodbye in an `a[…]` frame now; `c[code,"reason"]` with the WebSocket close, after
    /// the same linger as on the plain transport (the SDK reconnects on a `c` it reads before
    /// the kick).
    public mutating func encode(end: SessionEnd) -> (messages: [WireMessage], close: WireClose) {
        var (messages, close) = inner.encode(end: end)
        let reason = TextLimits.prefix(close.reason, maximumUTF8Bytes: 123)  // as the WebSocket close says it
        close.announcement = .text(SockJSFrame.close(code: Int(close.code), reason: reason).text)
        return (Self.batch(messages), close)
    }

    /// A close announced with `c[code,"reason"]` first.
    private func closing(_ close: WireClose) -> [DialectInput] {
        [.reply(.text(SockJSFrame.close(code: Int(close.code), reason: close.reason).text)), .close(close)]
    }

    /// The envelopes of one step in one `a[…]` frame (none for none).
    private static func batch(_ messages: [WireMessage]) -> [WireMessage] {
        messages.isEmpty ? [] : [framed(messages)]
    }

    private static func framed(_ messages: [WireMessage]) -> WireMessage {
        let strings = messages.map { message -> String in
            switch message {
            case .text(let text): text
            case .binary(let bytes): Base64.encode(bytes)
            }
        }
        return .text(SockJSFrame.messages(strings).text)
    }
}
