// Fuzz target `sockjs`: the SockJS framing of the Agora Chat web transport — client frames,
// server frames and session URLs — on the same input.
//
// Properties (a violation traps):
// - Client frame messages that parse are written (`SockJSClientFrame.text`) as a frame that
//   parses to the same messages.
// - A server frame that parses is written (`text`) as a frame that parses to it again.
// - A session URL that parses is rebuilt from its ids into a URL that parses to it again,
//   under every spelling of the base path.
// - Never a trap, never an out-of-bounds access (ASan).

import IMockWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSockJS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    if let messages = try? SockJSClientFrame.messages(in: input) {
        let again = try? SockJSClientFrame.messages(in: Array(SockJSClientFrame.text(messages).utf8))
        check(again == messages, "client messages \(messages) read back as \(String(describing: again))")
    }
    let text = String(decoding: input, as: UTF8.self)
    if let frame = try? SockJSFrame(parsing: text) {
        let again = Result { () throws(SockJSError) in try SockJSFrame(parsing: frame.text) }
        check(again == .success(frame), "server frame \(frame) written as \(frame.text) reads back as \(again)")
    }
    for base in ["/ws", "/ws/", "", "/"] {
        guard let path = SockJSPath(path: text, base: base) else { continue }
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        let rebuilt: String =
            switch path {
            case .greeting: trimmed + "/"
            case .info: trimmed + "/info"
            case .rawWebSocket: trimmed + "/websocket"
            case .websocket(let server, let session): "\(trimmed)/\(server)/\(session)/websocket"
            }
        check(SockJSPath(path: rebuilt, base: base) == path, "\(path) rebuilt as \(rebuilt) under \(base)")
    }
    return 0
}
