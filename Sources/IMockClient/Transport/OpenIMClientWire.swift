import IMockCommon
import IMockCore
import IMockWire

/// OpenIM's message gateway as the Go SDK speaks it (docs/PROTOCOL-OPENIM.md): the login is
/// the upgrade request's query, frames are gzip(gob), requests carry `msgIncr`. The state
/// machine's requests and what it hears map onto it like this:
///
/// - `login` → the upgrade at `/openim/{org}/{app}?sendID&token&platformID&…&isMsgResp=true&
///   deviceID` (the device's OpenIM platform and UUID). With `isMsgResp` the login's answer is
///   the first text frame, so the server's faults hold or drop it as they do an imock
///   `login.ok`. Success is `loginAccepted` and asks for the newest seqs (1001), then pulls the
///   conversations that have offline messages (1002), which arrive as the offline start, the
///   messages, the offline finish;
/// - a refusal's `errCode` (that frame, or an HTTP answer for bad arguments) in Easemob's
///   codes: 1501 → `loginRefused` 108, 1502 → 202, 1503/1505/1507 → 104, 1506 → a kick 2002,
///   1002/1004 → `loginRefused` with the OpenIM code; any other (1602, 500) → nothing: a drop
///   the client retries;
/// - `send` → 1003 (its reply `sent`), `logout` → 2003 (`loggedOut`), `ping` → the text
///   heartbeat (`pong`), `ack` → answered here (a pulled message is acked by the pull);
///   `renewToken` and `devices` → refused (OpenIM has neither on the gateway);
/// - pushes 2001 → a message, 2002 → a kick 2002 (its close is 4999).
final class OpenIMClientWire: ClientWire {
    private let codec = OpenIMFrameCodec(encoding: .gob, gzip: true)
    /// The login this connection carries (set when its request is encoded).
    private var login: (id: RequestTag, request: LoginRequest)?
    /// Requests waiting for their reply, by `msgIncr`: their kind (a few at a time, searched
    /// by `==` rather than hashed).
    private var pending = SmallMap<String, Int>()
    private var operations: UInt64 = 0

    /// The identifier of the reference client in `sdkVersion`.
    static let sdkVersion = "imock-reference"

    var opensAtLogin: Bool { true }

    func upgradeTarget(endpointPath: String) -> String { endpointPath }

    /// A kick's close is `4000 + code`, 4999 for 2002.
    func sessionEndCode(ofClose code: UInt16?) -> Int? { KickCloseCode.sessionEndCode(of: code) }

    func encode(_ request: SessionCommand) -> ClientWireOutput {
        switch request {
        case .login(let id, let request):
            login = (id, request)
            return ClientWireOutput(connect: Self.target(request, operationID: nextOperation()))
        case .ping(let id):
            let ping = JSONValue.object([("type", "ping"), ("body", .string(id?.rawValue ?? ""))])
            return ClientWireOutput(send: [.text(ping.encodedString)])
        case .send(let id, let to, let text):
            let user = login?.request.user ?? ""
            let data = OpenIMChatMessage.sendBytes(
                ChatMessage(messageId: id.rawValue, from: user, to: to, text: text, timestamp: 0),
                senderPlatformID: Int32(login?.request.device.platform.openIMPlatformID ?? 0))
            return ClientWireOutput(send: [self.request(OpenIMGatewayDialect.Request.sendMessage, id: id.rawValue, data: data)])
        case .logout(let id, _):
            var data = OpenIMPB.DelUserPushTokenReq()
            data.userID = login?.request.user ?? ""
            data.platformID = Int32(login?.request.device.platform.openIMPlatformID ?? 0)
            return ClientWireOutput(send: [self.request(OpenIMGatewayDialect.Request.logout, id: id.rawValue, data: data.protobufBytes())])
        case .ack(let id, _):
            return ClientWireOutput(said: [.reply(id, .acked)])
        case .renewToken(let id, _), .devices(let id):
            let error = ClientError(code: OpenIMErrorCode.args.rawValue, message: "the OpenIM gateway has no such request")
            return ClientWireOutput(said: [.reply(id, .refused(error, field: nil))])
        }
    }

    /// The upgrade is done; the answer is the first text frame (`isMsgResp`).
    func handshakeSucceeded() -> ClientWireOutput {
        answered = false
        return ClientWireOutput()
    }

    func handshakeRefused(status: Int, body: [UInt8]) -> ClientWireOutput {
        guard let answer = try? JSONValue.parse(body) else { return ClientWireOutput() }
        return loginAnswer(answer)
    }

    /// Whether the `isMsgResp` answer came (the first text frame is it; later ones are heartbeats).
    private var answered = true

    /// The `isMsgResp` answer `{"errCode","errMsg","errDlt"}`: the login accepted (and 1001), or
    /// the refusal.
    private func loginAnswer(_ answer: JSONValue) -> ClientWireOutput {
        guard let login, let code = answer["errCode"]?.intValue else { return ClientWireOutput() }
        guard code != 0 else {
            let device = login.request.device
            let resource = device.resource ?? "\(device.platform.resourcePrefix)_\(device.uuid)"
            let newest = OpenIMPB.GetMaxSeqReq(userID: login.request.user)
            return ClientWireOutput(
                send: [request(OpenIMGatewayDialect.Request.getNewestSeq, id: nextOperation(), data: newest.protobufBytes())],
                said: [.reply(login.id, .loginAccepted(resource: resource, tokenExpiresAt: nil, serverTime: 0))])
        }
        let message = "\(answer["errMsg"]?.stringValue ?? ""): \(answer["errDlt"]?.stringValue ?? "") (OpenIM \(code))"
        let refusedCode: Int
        switch OpenIMErrorCode(rawValue: Int(code)) {
        case .tokenExpired: refusedCode = KickCode.tokenExpired.rawValue
        case .tokenInvalid: refusedCode = KickCode.authenticationFailed.rawValue
        case .tokenMalformed, .tokenUnknown, .tokenNotExist: refusedCode = KickCode.invalidToken.rawValue
        case .tokenKicked:
            return ClientWireOutput(said: [.end(.kicked(code: OpenIMKickCode.kickOnlineMessage.rawValue, reason: message, by: nil))])
        case .noPermission, .recordNotFound: refusedCode = Int(code)
        default: return ClientWireOutput()
        }
        return ClientWireOutput(said: [.reply(login.id, .loginRefused(ClientError(code: refusedCode, message: message)))])
    }

    func decode(_ message: WireMessage) -> ClientWireOutput {
        switch message {
        case .text(let text):
            if !answered, let answer = try? JSONValue.parse(text) {
                answered = true
                return loginAnswer(answer)
            }
            guard let heartbeat = try? JSONValue.parse(text), heartbeat["type"] == "pong" else {
                return .unreadable("not a heartbeat")
            }
            let body = heartbeat["body"]?.stringValue ?? ""
            return ClientWireOutput(said: [.reply(body.isEmpty ? nil : RequestTag(body), .pong(serverTime: 0))])
        case .binary(let bytes):
            do {
                return try response(try codec.decodeResponse(bytes))
            } catch {
                return .unreadable("\(error)")
            }
        }
    }

    // MARK: Parts

    private func response(_ response: OpenIMResp) throws(ProtobufError) -> ClientWireOutput {
        typealias Request = OpenIMGatewayDialect.Request
        switch response.reqIdentifier {
        case Request.push:
            let messages: [OpenIMPB.MsgData]
            if let one = OpenIMPB.PushMessages.scannedMessagesOfOneConversation(response.data) {
                messages = one  // a push of one message: no map built
            } else {
                messages = Self.messages(try OpenIMPB.PushMessages.decoded(response.data))
            }
            return ClientWireOutput(said: messages.map { .push(.message(OpenIMChatMessage.chatMessage($0))) })
        case Request.kick:
            return ClientWireOutput(said: [.end(.kicked(code: Request.kick, reason: "kicked offline", by: nil))])
        case Request.getNewestSeq:
            return pull(try OpenIMPB.GetMaxSeqResp(protobufBytes: response.data))
        case Request.pullMessageBySeqs:
            let pulled = try OpenIMPB.PullMessageBySeqsResp.decoded(response.data)
            let messages = Self.messages(pulled)
            guard !messages.isEmpty else { return ClientWireOutput() }
            let said = [ServerInput.push(.offlineStart(count: messages.count))]
                + messages.map { .push(.message(OpenIMChatMessage.chatMessage($0))) } + [.push(.offlineFinish)]
            return ClientWireOutput(said: said)
        case Request.sendMessage, Request.logout:
            guard pending.removeValue(forKey: response.msgIncr) != nil else { return ClientWireOutput() }
            let tag = RequestTag(response.msgIncr)
            guard response.errCode == 0 else {
                let error = ClientError(code: response.errCode, message: response.errMsg)
                return ClientWireOutput(said: [.reply(tag, .refused(error, field: nil))])
            }
            if response.reqIdentifier == Request.logout { return ClientWireOutput(said: [.reply(tag, .loggedOut)]) }
            let sent = try OpenIMPB.SendMsgResp.decoded(response.data)
            return ClientWireOutput(said: [.reply(tag, .sent(messageId: sent.serverMsgID, timestamp: sent.sendTime))])
        default:
            return ClientWireOutput()
        }
    }

    /// The messages of a push or pull answer, conversation by conversation in id order.
    private static func messages(_ answer: OpenIMPB.MsgsByConversation) -> [OpenIMPB.MsgData] {
        if answer.msgs.count == 1, let only = answer.msgs.first { return only.value.msgs }  // a push
        return answer.msgs.keys.sorted().flatMap { answer.msgs[$0]?.msgs ?? [] }
    }

    /// 1002 for every conversation that has offline messages (none: nothing to pull).
    private func pull(_ newest: OpenIMPB.GetMaxSeqResp) -> ClientWireOutput {
        var pull = OpenIMPB.PullMessageBySeqsReq()
        pull.userID = login?.request.user ?? ""
        pull.seqRanges = newest.maxSeqs.keys.sorted().compactMap { conversation in
            guard let maxSeq = newest.maxSeqs[conversation], maxSeq > 0 else { return nil }
            return OpenIMPB.SeqRange(conversationID: conversation, begin: newest.minSeqs[conversation] ?? 0, end: maxSeq, num: 0)
        }
        guard !pull.seqRanges.isEmpty else { return ClientWireOutput() }
        return ClientWireOutput(send: [request(OpenIMGatewayDialect.Request.pullMessageBySeqs, id: nextOperation(), data: pull.protobufBytes())])
    }

    /// A request frame; replies to `send` and `logout` are matched by `msgIncr` = `id`.
    private func request(_ identifier: Int, id: String, data: [UInt8]) -> WireMessage {
        if identifier == OpenIMGatewayDialect.Request.sendMessage || identifier == OpenIMGatewayDialect.Request.logout {
            pending.updateValue(identifier, forKey: id)
        }
        let request = OpenIMGeneralWsReq(
            reqIdentifier: identifier, sendID: login?.request.user ?? "", operationID: nextOperation(), msgIncr: id, data: data)
        return .binary(codec.encode(request))
    }

    private func nextOperation() -> String {
        operations += 1
        return "imock-" + String(operations)  // not interpolated: one string a request
    }

    /// `/openim/{org}/{app}?sendID=…&token=…&platformID=…&operationID=…&isBackground=false&compression=gzip&…`,
    /// written as bytes (the load side of `bench login-storm` builds one per device: appending
    /// to a `String` piece by piece cost about 29,000 instructions, callgrind).
    static func target(_ request: LoginRequest, operationID: String) -> String {
        let query: KeyValuePairs<String, String> = [
            "sendID": request.user, "token": request.token,
            "platformID": String(request.device.platform.openIMPlatformID ?? 0), "operationID": operationID,
            "isBackground": "false", "compression": "gzip", "isMsgResp": "true", "sdkVersion": sdkVersion,
            "deviceID": request.device.uuid,
        ]
        var target = Array("/openim".utf8)
        target.reserveCapacity(160 + request.token.utf8.count)
        for part in request.appKey.split(separator: "#", maxSplits: 1) {
            target.append(UInt8(ascii: "/"))
            PercentEncoding.append(String(part), to: &target)
        }
        var separator = UInt8(ascii: "?")
        for (name, value) in query {
            target.append(separator)
            target.append(contentsOf: name.utf8)
            target.append(UInt8(ascii: "="))
            PercentEncoding.append(value, to: &target)
            separator = UInt8(ascii: "&")
        }
        return String(decoding: target, as: UTF8.self)
    }
}
