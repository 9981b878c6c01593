import IMockCommon
import IMockCore
import IMockNet
import IMockTestSupport
import IMockWire

/// The dialects the delivery contract is checked over (docs/PROTOCOL.md § Delivery). Adding a
/// dialect to the server means adding it here: every test of `DeliveryContractTests` then runs
/// over it.
enum ContractDialect: String, CaseIterable, CustomStringConvertible, Sendable {
    case imockJSON = "imock JSON"
    case msync = "msync"
    case msyncSockJS = "msync over SockJS"
    case openIMGob = "OpenIM gateway, gob"
    case openIMJSON = "OpenIM gateway, JSON"

    var description: String { rawValue }

    /// Whether it is msync (whose devices may be silent for 90 s: no idle test at test speed).
    var isMsync: Bool { self == .msync || self == .msyncSockJS }

    /// Whether the app must have OpenIM's login policy (and devices OpenIM platforms).
    var isOpenIM: Bool { self == .openIMGob || self == .openIMJSON }

    /// The path (and query) a device of `user` upgrades; OpenIM logs in with it.
    func path(user: String, token: String) -> String {
        switch self {
        case .imockJSON: ImockJSONDialect.path
        case .msync: MsyncDialect.path
        case .msyncSockJS: "/ws/000/contract/websocket"
        case .openIMGob, .openIMJSON:
            "/openim/acme/chat?sendID=\(user)&token=\(token)&platformID=5&operationID=op&isBackground=false&sdkType="
                + (self == .openIMGob ? "go" : "js")
        }
    }

    /// The device part of an imock JSON login in this dialect's app.
    var imockDevice: String { isOpenIM ? #""platformId":5"# : #""os":"ios""# }

    private var codec: OpenIMFrameCodec { OpenIMFrameCodec(encoding: self == .openIMGob ? .gob : .json, gzip: false) }

    /// The frames that log `user` in (after the upgrade).
    func login(user: String, token: String, device: String) -> [(WebSocketOpcode, [UInt8])] {
        switch self {
        case .imockJSON:
            let json = #"{"op":"login","id":"l","appKey":"acme#chat","user":"\#(user)","token":"\#(token)","device":{"os":"ios","uuid":"\#(device)"}}"#
            return [(.text, Array(json.utf8))]
        case .openIMGob, .openIMJSON:
            return []  // the upgrade request logged in
        case .msync, .msyncSockJS:
            return [msyncFrame(MsyncTestDevice.provision(user: user, token: token, resource: device))]
        }
    }

    /// The dialect's heartbeat frame (a device that pings is not idle).
    var ping: (WebSocketOpcode, [UInt8]) {
        switch self {
        case .imockJSON: (.text, Array(#"{"op":"ping"}"#.utf8))
        case .msync, .msyncSockJS: msyncFrame(MsyncPB.MSync(command: .unread, payload: MsyncPB.CommUnreadUL()))
        case .openIMGob, .openIMJSON: (.text, Array(#"{"type":"ping","body":""}"#.utf8))
        }
    }

    /// The frame that sends `text` from `sender` to `recipient` as request `id`.
    func send(_ text: String, from sender: String, to recipient: String, id: UInt64) -> (WebSocketOpcode, [UInt8]) {
        switch self {
        case .openIMGob, .openIMJSON:
            var data = OpenIMPB.MsgData()
            data.sendID = sender
            data.recvID = recipient
            data.clientMsgID = "c\(id)"
            data.sessionType = OpenIMChatMessage.singleChat
            data.msgFrom = OpenIMChatMessage.userMessage
            data.contentType = OpenIMChatMessage.text
            data.content = JSONValue.object([("content", .string(text))]).encoded()
            let request = OpenIMGeneralWsReq(
                reqIdentifier: OpenIMGatewayDialect.Request.sendMessage, sendID: sender, operationID: "op", msgIncr: String(id),
                data: data.protobufBytes())
            return (.binary, codec.encode(request))
        case .imockJSON:
            let json = #"{"op":"send","id":"\#(id)","to":"\#(recipient)","text":"\#(text)"}"#
            return (.text, Array(json.utf8))
        case .msync, .msyncSockJS:
            var body = MsyncPB.MessageBody()
            body.type = .chat
            body.to = MsyncPB.JID(appKey: "acme#chat", name: recipient, domain: MsyncDialect.userDomain)
            var content = MsyncPB.MessageBody.Content()
            content.type = .text
            content.text = text
            body.contents = [content]
            var meta = MsyncPB.Meta()
            meta.id = id
            meta.to = body.to
            meta.ns = .chat
            meta.payload = body.protobufBytes()
            var upload = MsyncPB.CommSyncUL()
            upload.meta = meta
            return msyncFrame(MsyncPB.MSync(command: .sync, payload: upload))
        }
    }

    /// The frames with which `user` asks for the offline messages `sender` left: none for imock
    /// JSON (its sync comes with the login), a pull of the sender's queue for msync, a 1002 of
    /// their conversation for the gateway.
    func pullOffline(user: String, from sender: String) -> [(WebSocketOpcode, [UInt8])] {
        switch self {
        case .imockJSON:
            return []
        case .msync, .msyncSockJS:
            let queue = MsyncPB.JID(appKey: "acme#chat", name: sender, domain: MsyncDialect.userDomain)
            return [msyncFrame(MsyncPB.MSync(command: .sync, payload: MsyncPB.CommSyncUL.pull(queue, key: nil)))]
        case .openIMGob, .openIMJSON:
            var range = OpenIMPB.SeqRange()
            range.conversationID = OpenIMChatMessage.conversationID(user, sender)
            range.begin = 0
            range.end = Int64(Int32.max)
            range.num = 1000
            var pull = OpenIMPB.PullMessageBySeqsReq()
            pull.userID = user
            pull.seqRanges = [range]
            let request = OpenIMGeneralWsReq(
                reqIdentifier: OpenIMGatewayDialect.Request.pullMessageBySeqs, sendID: user, operationID: "op", msgIncr: "pull",
                data: pull.protobufBytes())
            return [(.binary, codec.encode(request))]
        }
    }

    private func msyncFrame(_ envelope: MsyncPB.MSync) -> (WebSocketOpcode, [UInt8]) {
        guard self == .msyncSockJS else { return (.binary, envelope.protobufBytes()) }
        return (.text, Array(SockJSClientFrame.text([Base64.encode(envelope.protobufBytes())]).utf8))
    }

    /// What one server message says about sends and messages, in the dialect's words.
    func events(in frame: WebSocketFrame) -> [ContractEvent] {
        switch self {
        case .imockJSON:
            guard frame.opcode == .text, let json = try? JSONValue.parse(String(decoding: frame.payload, as: UTF8.self)) else {
                return []
            }
            switch json["op"]?.stringValue {
            case "send.ok": return [.accepted(request: json["id"]?.stringValue ?? "", messageID: json["messageId"]?.stringValue ?? "")]
            case "error": return [.refused(request: json["id"]?.stringValue ?? "", code: String(json["code"]?.intValue ?? -1))]
            case "message": return [.message(json["messageId"]?.stringValue ?? "")]
            default: return []
            }
        case .msync, .msyncSockJS:
            return envelopes(in: frame).flatMap(msyncEvents)
        case .openIMGob, .openIMJSON:
            guard frame.opcode == .binary, let response = try? codec.decodeResponse(frame.payload) else { return [] }
            switch response.reqIdentifier {
            case OpenIMGatewayDialect.Request.sendMessage:
                guard response.errCode == 0 else { return [.refused(request: response.msgIncr, code: String(response.errCode))] }
                let sent = try? OpenIMPB.SendMsgResp(protobufBytes: response.data)
                return [.accepted(request: response.msgIncr, messageID: sent?.serverMsgID ?? "")]
            case OpenIMGatewayDialect.Request.push:
                let push = (try? OpenIMPB.PushMessages(protobufBytes: response.data))?.msgs.values.flatMap(\.msgs) ?? []
                return push.map { .message($0.serverMsgID) }
            case OpenIMGatewayDialect.Request.pullMessageBySeqs:
                let pulled = (try? OpenIMPB.MsgsByConversation(protobufBytes: response.data))?.msgs.values.flatMap(\.msgs) ?? []
                return pulled.sorted { $0.seq < $1.seq }.map { .message($0.serverMsgID) }
            default:
                return []
            }
        }
    }

    private func envelopes(in frame: WebSocketFrame) -> [MsyncPB.MSync] {
        if self == .msync { return (try? MsyncPB.MSync(protobufBytes: frame.payload)).map { [$0] } ?? [] }
        let text = String(decoding: frame.payload, as: UTF8.self)
        guard text.hasPrefix("a") else { return [] }
        let messages = (try? SockJSClientFrame.messages(in: Array(text.utf8.dropFirst()))) ?? []
        return messages.compactMap { Base64.decode($0).flatMap { try? MsyncPB.MSync(protobufBytes: $0) } }
    }

    private func msyncEvents(_ envelope: MsyncPB.MSync) -> [ContractEvent] {
        guard envelope.command == .sync, let sync = try? envelope.decodePayload(as: MsyncPB.CommSyncDL.self) else { return [] }
        var events: [ContractEvent] = []
        if let metaID = sync.metaId {
            if sync.status?.errorCode ?? .ok == .ok {
                events.append(.accepted(request: String(metaID), messageID: sync.serverId.map(String.init) ?? ""))
            } else {
                events.append(.refused(request: String(metaID), code: "\(sync.status?.errorCode ?? .ok)"))
            }
        }
        for meta in sync.metas where meta.ns == .chat { events.append(.message(String(meta.id ?? 0))) }
        return events
    }
}

/// What a device saw, in any dialect.
enum ContractEvent: Equatable, Sendable {
    case accepted(request: String, messageID: String)
    case refused(request: String, code: String)
    case message(String)
}

/// A device of a ``ContractDialect`` over a blocking raw socket: it reads only when told to, so
/// it can stop reading (with a small receive buffer) as a stalled app does.
final class ContractDevice {
    let dialect: ContractDialect
    let user: String
    let client: RawWebSocketClient
    private var parser = WebSocketFrameParser(role: .client, maxFrameSize: 1 << 24)

    init(
        _ dialect: ContractDialect, port: UInt16, user: String, token: String, device: String, receiveBufferBytes: Int32? = nil,
        query: String = ""
    ) throws {
        self.dialect = dialect
        self.user = user
        client = try RawWebSocketClient(
            port: port, path: dialect.path(user: user, token: token) + query, receiveBufferBytes: receiveBufferBytes)
        for (opcode, payload) in dialect.login(user: user, token: token, device: device) {
            try client.send(opcode: opcode, payload: payload)
        }
    }

    func send(_ text: String, to recipient: String, id: UInt64) throws {
        let (opcode, payload) = dialect.send(text, from: user, to: recipient, id: id)
        try client.send(opcode: opcode, payload: payload)
    }

    /// Sends the dialect's heartbeat.
    func ping() throws {
        let (opcode, payload) = dialect.ping
        try client.send(opcode: opcode, payload: payload)
    }

    /// Reads until `enough` says so or the server closes; returns every event seen and the
    /// close code, if the server closed.
    func read(until enough: ([ContractEvent]) -> Bool) throws -> (events: [ContractEvent], close: UInt16?) {
        var events: [ContractEvent] = []
        while !enough(events) {
            let chunk = try client.socket.receive()
            if chunk.isEmpty { return (events, nil) }
            parser.feed(chunk)
            while let frame = try? parser.next() {
                if frame.opcode == .close {
                    let code = frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : 1005
                    return (events, code)
                }
                if frame.opcode == .text, frame.payload.first == UInt8(ascii: "c") {
                    return (events, Self.sockJSClose(frame.payload))  // SockJS's close frame c[code,"reason"]
                }
                events += dialect.events(in: frame)
            }
        }
        return (events, nil)
    }

    private static func sockJSClose(_ payload: [UInt8]) -> UInt16 {
        let digits = payload.drop { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return UInt16(String(decoding: digits, as: UTF8.self)) ?? 0
    }
}
