// Fuzz target `openim-gateway`: the OpenIM gateway dialect's incoming path — a binary or text
// WebSocket message through gzip, gob or JSON, the request dispatch and its protobuf payloads —
// and the handshake query parser.
//
// The first input byte chooses the connection: bit 0 JSON (`sdkType=js`) instead of gob, bit 1
// gzip, bit 2 a text message instead of a binary one; the rest is the message. It also serves
// as the query string of a handshake (`name=value&…`).
//
// Properties (a violation traps):
// - Decoding ends in commands, replies or one close; a close comes last and alone, with 1003
//   (a text frame that is no heartbeat), 1007 (not a frame) or 1008 (another sendID, an
//   unknown request).
// - Every reply is a `Resp` the connection's own codec reads back, echoing the request's
//   `reqIdentifier`, `msgIncr` and `operationID` when the message is a request.
// - A message that is a request is never closed as "not a frame" (1007).
// - Every command the engine would get is answered: its reply (success or refusal) encodes to
//   messages the codec reads back; pushes and ends encode too.
// - The handshake parser never traps; what it accepts has a known platform and a non-empty
//   token, sendID and operationID.
// - Never a trap, never an out-of-bounds access (ASan).

import IMockCore
import IMockWire

private let user = "amy"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenIMGateway(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    handshake(input)
    guard let mode = input.first else { return 0 }
    let codec = OpenIMFrameCodec(encoding: mode & 1 == 0 ? .gob : .json, gzip: mode & 2 != 0)
    var query = [("sendID", user), ("token", "t"), ("platformID", "1"), ("operationID", "o"), ("isBackground", "false")]
    if codec.encoding == .json { query.append(("sdkType", "js")) }
    if codec.gzip { query.append(("compression", "gzip")) }
    var dialect = OpenIMGatewayDialect()
    let login = dialect.login(forUpgrade: UpgradeRequest(path: "/openim/acme/chat", query: query, headers: []))
    check(login == .login(.login(RequestTag("login"), try! OpenIMHandshake(
        UpgradeRequest(path: "/openim/acme/chat", query: query, headers: [])).loginRequest)), "the fixed handshake logs in")

    let body = Array(input.dropFirst())
    let message: WireMessage = mode & 4 == 0 ? .binary(body) : .text(String(decoding: body, as: UTF8.self))
    let request: OpenIMGeneralWsReq? = if case .binary = message { try? codec.decodeRequest(body) } else { nil }
    let inputs = dialect.decode(message)
    for (index, input) in inputs.enumerated() {
        switch input {
        case .close(let close):
            check(index == inputs.count - 1 && inputs.count == 1, "a close among other inputs: \(inputs)")
            check([1003, 1007, 1008].contains(close.code), "close code \(close.code)")
            check(request == nil || close.code != 1007, "a request closed as not a frame: \(String(describing: request))")
        case .reply(let reply), .replyCarrying(let reply, _):
            readBack(reply, codec: codec, echoing: request)
        case .command(let command):
            answer(command, dialect: &dialect, codec: codec)
        }
    }
    for push in [SessionPush.message(ChatMessage(messageId: "7", from: "bob", to: user, text: "x", timestamp: 1)), .offlineStart(count: 1)] {
        for message in dialect.encode(push: push) { readBack(message, codec: codec, echoing: nil) }
    }
    let end = SessionEnd(cause: .kicked(code: 2002, by: nil), reason: "r", subject: JournalSubject(connection: ConnectionID(1)))
    for message in dialect.encode(end: end).messages { readBack(message, codec: codec, echoing: nil) }
    return 0
}

/// The engine's answers to `command`, encoded: each must read back.
private func answer(_ command: SessionCommand, dialect: inout OpenIMGatewayDialect, codec: OpenIMFrameCodec) {
    guard let tag = command.tag else { return check(false, "a command without a tag: \(command)") }
    var replies: [SessionReply] = [.refused(.recipientNotFound, field: nil)]
    switch command {
    case .send: replies.append(.sent(messageId: "9", timestamp: 5))
    case .logout: replies.append(.loggedOut)
    case .ping: replies.append(.pong(serverTime: 5))
    case .ack: replies.append(.acked)
    default: check(false, "the gateway asked the engine for \(command)")
    }
    for reply in replies {
        for message in dialect.encode(reply: reply, tag: tag) { readBack(message, codec: codec, echoing: nil) }
    }
}

/// A message the dialect sends: a `Resp` the codec reads (echoing `request`), or a text heartbeat.
private func readBack(_ message: WireMessage, codec: OpenIMFrameCodec, echoing request: OpenIMGeneralWsReq?) {
    switch message {
    case .binary(let bytes):
        let response = try? codec.decodeResponse(bytes)
        check(response != nil, "a reply the codec cannot read")
        if let request, let response {
            check(
                response.reqIdentifier == request.reqIdentifier && response.msgIncr == request.msgIncr
                    && response.operationID == request.operationID, "\(response) does not echo \(request)")
        }
    case .text(let text):
        check((try? JSONValue.parse(text))?["type"] == "pong", "a text reply that is not a pong: \(text)")
    }
}

/// The input as a query string: never a trap; an accepted handshake is complete.
private func handshake(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    let query = text.split(separator: "&").map { pair -> (name: String, value: String) in
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
    }
    guard let handshake = try? OpenIMHandshake(UpgradeRequest(path: "/openim/o/a", query: query, headers: [])) else { return }
    check(!handshake.token.isEmpty && !handshake.sendID.isEmpty && !handshake.operationID.isEmpty, "\(handshake)")
    check(OpenIMPlatform(rawValue: handshake.platform.rawValue) != nil && handshake.appKey == "o#a", "\(handshake)")
}
