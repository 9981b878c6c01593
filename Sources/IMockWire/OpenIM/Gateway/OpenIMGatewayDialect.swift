import IMockCommon
import IMockCore

/// OpenIM's message gateway (msggateway) as a dialect (reference openim-zim.md §A4,
/// docs/PROTOCOL-OPENIM.md): the login is the upgrade request's query (a refused token is an
/// HTTP 200 JSON answer without upgrade, or with `isMsgResp` a text frame then a close); frames
/// are gob or JSON `Req`/`Resp`, gzip-compressed on request; requests are matched by `msgIncr`.
///
/// Served: 1001 newest seq and 1002 pull by seqs (over the offline messages the engine delivered
/// at login), 1003 send (1:1 text), 2003 logout, 2004 background status, the text heartbeat;
/// pushes 2001 (messages) and 2002 (kick, then close). Other known requests are answered with
/// an ArgsError; an unknown one closes the connection, as the real gateway does.
public struct OpenIMGatewayDialect: WireDialect {
    public let name = "openim"

    /// The handshake, once the upgrade request was read.
    public private(set) var handshake: OpenIMHandshake?
    /// The background flag: the handshake's, then 2004's.
    public private(set) var isInBackground = false
    private var codec = OpenIMFrameCodec(encoding: .gob, gzip: false)
    /// Requests waiting for the engine's reply, by the tag the dialect gave them: one or two
    /// at a time, searched by `==` rather than hashed (a `SmallMap`).
    private var pending = SmallMap<String, Pending>()
    private var nextTag: UInt64 = 0
    private var inbox = OpenIMOfflineInbox()
    /// Between the engine's offline start and finish: messages go to the inbox, not out.
    private var inOfflineSync = false

    /// What a tag stands for.
    private enum Pending: Sendable {
        /// A client request, to answer with a `Resp` echoing these.
        case request(reqIdentifier: Int, msgIncr: String, operationID: String, clientMsgID: String)
        /// A text `ping`, to answer with a text `pong` carrying `body`.
        case textPing(body: JSONValue)
    }

    /// The request identifiers (openim-sdk-core `pkg/constant`, msggateway `constant.go`).
    public enum Request {
        /// `WSGetNewestSeq`.
        public static let getNewestSeq = 1001
        /// `WSPullMsgBySeqList`.
        public static let pullMessageBySeqs = 1002
        /// `WSSendMsg`.
        public static let sendMessage = 1003
        /// `WSPushMsg`.
        public static let push = 2001
        /// `WSKickOnlineMsg`.
        public static let kick = 2002
        /// `WsLogoutMsg`.
        public static let logout = 2003
        /// `WsSetBackgroundStatus`.
        public static let setBackgroundStatus = 2004
        /// Known to the gateway, not served by imock (answered with an ArgsError).
        public static let notServed: [Int: String] = [
            1004: "WSSendSignalMsg", 1005: "WSPullMsg", 1006: "WSGetConvMaxReadSeq", 1007: "WsPullConvLastMessage",
            2005: "WsSubUserOnlineStatus", 3001: "WSDataError",
        ]
    }

    /// A dialect for one connection.
    public init() {}

    // MARK: Upgrade

    public mutating func login(forUpgrade request: UpgradeRequest) -> UpgradeLogin {
        do throws(OpenIMError) {
            let handshake = try OpenIMHandshake(request)
            self.handshake = handshake
            isInBackground = handshake.isBackground
            codec = OpenIMFrameCodec(encoding: handshake.encoding, gzip: handshake.gzip)
            return .login(.login(RequestTag("login"), handshake.loginRequest))
        } catch {
            // Arguments are checked before the upgrade: always an HTTP answer.
            return .refuse(Self.httpRefusal(error))
        }
    }

    public func refusal(forUpgrade end: SessionEnd) -> UpgradeRefusal {
        let error = Self.error(of: end)
        var refusal = Self.httpRefusal(error)
        if handshake?.isMsgResp == true {
            refusal.overWebSocket = WebSocketRefusal(
                messages: [.text(error.json.encodedString)], close: WireClose(code: CloseCode.normal, reason: error.code.name))
        }
        return refusal
    }

    /// HTTP 200 with `{"errCode","errMsg","errDlt"}`: how the gateway refuses without upgrading.
    static func httpRefusal(_ error: OpenIMError) -> UpgradeRefusal {
        UpgradeRefusal(status: 200, contentType: "application/json; charset=utf-8", body: error.json.encoded())
    }

    /// The OpenIM error of an end (a refused login's; else the end's reason).
    static func error(of end: SessionEnd) -> OpenIMError {
        if case .loginRefused(_, let error) = end.cause { return OpenIMError(error) }
        return OpenIMError(.serverInternal, end.reason)
    }

    // MARK: Incoming

    public mutating func decode(_ message: WireMessage) -> [DialectInput] {
        // Not bound: a copy of the handshake retains each of its strings, at every frame.
        guard handshake != nil else {
            return [.close(WireClose(code: CloseCode.policyViolation, reason: "no handshake"))]
        }
        switch message {
        case .text(let text):
            return textMessage(text)
        case .binary(let bytes):
            let request: OpenIMGeneralWsReq
            do {
                request = try codec.decodeRequest(bytes)
            } catch {
                return [.close(WireClose(code: CloseCode.invalidPayload, reason: "\(error)"))]
            }
            guard request.sendID == handshake?.sendID else {
                return [.close(WireClose(code: CloseCode.policyViolation, reason: "sendID is not the connection's user"))]
            }
            return self.request(request)
        }
    }

    /// The text heartbeat: `{"type":"ping","body":…}` is answered with `pong`; a `pong` is
    /// taken; anything else closes the connection.
    private mutating func textMessage(_ text: String) -> [DialectInput] {
        let message = try? JSONValue.parse(text)
        switch message?["type"]?.stringValue {
        case "ping":
            let tag = newTag()
            pending.updateValue(.textPing(body: message?["body"] ?? .null), forKey: tag.rawValue)
            return [.command(.ping(tag))]
        case "pong":
            return []
        default:
            return [.close(WireClose(code: CloseCode.unsupportedData, reason: "not support message type"))]
        }
    }

    private mutating func request(_ request: OpenIMGeneralWsReq) -> [DialectInput] {
        switch request.reqIdentifier {
        case Request.getNewestSeq:
            var newest = OpenIMPB.GetMaxSeqResp()
            newest.maxSeqs = inbox.maxSeqs
            newest.minSeqs = inbox.minSeqs
            return [reply(to: request, data: newest.protobufBytes())]
        case Request.pullMessageBySeqs:
            return pull(request)
        case Request.sendMessage:
            return send(request)
        case Request.logout:
            return [.command(.logout(remember(request), unbindDeviceToken: false))]
        case Request.setBackgroundStatus:
            guard let status = try? OpenIMPB.SetAppBackgroundStatusReq(protobufBytes: request.data) else {
                return [reply(to: request, error: OpenIMError(.args, "data is not a SetAppBackgroundStatusReq"))]
            }
            isInBackground = status.isBackground
            return [reply(to: request, data: [])]
        default:
            if let name = Request.notServed[request.reqIdentifier] {
                let detail = "imock does not serve reqIdentifier \(request.reqIdentifier) (\(name))"
                return [reply(to: request, error: OpenIMError(.args, detail))]
            }
            return [.close(WireClose(code: CloseCode.policyViolation, reason: "unknown reqIdentifier \(request.reqIdentifier)"))]
        }
    }

    /// 1002: the offline messages of each range, within the bounds of one pull (more ranges
    /// than the inbox allows, or a conversation twice: an ArgsError, nothing handed over). The
    /// answer carries what it returns: the engine holds those messages until the device's TCP
    /// acknowledged the answer (``DialectInput/replyCarrying(_:messageIds:)``).
    private mutating func pull(_ request: OpenIMGeneralWsReq) -> [DialectInput] {
        guard let pull = try? OpenIMPB.PullMessageBySeqsReq(protobufBytes: request.data) else {
            return [reply(to: request, error: OpenIMError(.args, "data is not a PullMessageBySeqsReq"))]
        }
        let pulled: (answer: OpenIMPB.PullMessageBySeqsResp, carried: [String])
        do throws(OpenIMError) {
            pulled = try inbox.answer(pull)
        } catch {
            return [reply(to: request, error: error)]
        }
        let answer = OpenIMResp(
            reqIdentifier: request.reqIdentifier, msgIncr: request.msgIncr, operationID: request.operationID,
            data: pulled.answer.protobufBytes())
        return [.replyCarrying(message(answer), messageIds: pulled.carried)]
    }

    /// 1003: a 1:1 text message for the engine.
    private mutating func send(_ request: OpenIMGeneralWsReq) -> [DialectInput] {
        if let send = OpenIMChatMessage.scannedSend(request.data) {
            return [.command(.send(remember(request, clientMsgID: send.clientMsgID), to: send.recvID, text: send.text))]
        }
        guard let data = try? OpenIMPB.MsgData.decoded(request.data) else {
            return [reply(to: request, error: OpenIMError(.args, "data is not a MsgData"))]
        }
        switch OpenIMChatMessage.text(of: data) {
        case .failure(let error):
            return [reply(to: request, error: error)]
        case .success(let text):
            return [.command(.send(remember(request, clientMsgID: data.clientMsgID), to: data.recvID, text: text))]
        }
    }

    // MARK: Outgoing

    public mutating func encode(reply: SessionReply, tag: RequestTag?) -> [WireMessage] {
        if case .loginAccepted = reply {
            return handshake?.isMsgResp == true ? [.text(Self.successJSON)] : []
        }
        guard let tag, let waiting = pending.removeValue(forKey: tag.rawValue) else { return [] }
        switch (waiting, reply) {
        case (.textPing(let body), _):
            return [.text(JSONValue.object([("type", .string("pong")), ("body", body)]).encodedString)]
        case (.request(let identifier, let msgIncr, let operationID, _), .refused(let error, _)):
            return [message(OpenIMResp(identifier, msgIncr, operationID, error: OpenIMError(error)))]
        case (.request(let identifier, let msgIncr, let operationID, let clientMsgID), .sent(let messageId, let timestamp)):
            let sent = OpenIMPB.SendMsgResp(serverMsgID: messageId, clientMsgID: clientMsgID, sendTime: timestamp)
            return [message(OpenIMResp(reqIdentifier: identifier, msgIncr: msgIncr, operationID: operationID, data: sent.protobufBytes()))]
        case (.request(let identifier, let msgIncr, let operationID, _), _):
            return [message(OpenIMResp(reqIdentifier: identifier, msgIncr: msgIncr, operationID: operationID))]
        }
    }

    public mutating func encode(push: SessionPush) -> [WireMessage] {
        switch push {
        case .offlineStart:
            inOfflineSync = true
            return []
        case .offlineFinish:
            inOfflineSync = false
            return []
        case .message(let chat):
            guard !inOfflineSync else {
                inbox.add(chat)
                return []
            }
            return [message(OpenIMResp(reqIdentifier: Request.push, data: OpenIMChatMessage.pushMessagesBytes(chat)))]
        case .tokenWillExpire, .syncStart, .syncFinish:
            return []  // OpenIM has no such push, and its logins ask for no data sync
        }
    }

    public mutating func encode(end: SessionEnd) -> (messages: [WireMessage], close: WireClose) {
        switch end.cause {
        case .kicked(let code, _):
            // The kick push is the same for every connection of a codec: encoded (and gzipped) once.
            let variant = (codec.encoding == .gob ? 0 : 2) + (codec.gzip ? 1 : 0)
            let key = SharedGoodbyes.Key(dialect: name, variant: variant, code: Request.kick, reason: "")
            let push = SharedGoodbyes.shared.message(key) { message(OpenIMResp(reqIdentifier: Request.kick)) }
            return ([push], WireClose(code: CloseCode.forCode(code), reason: end.reason))
        case .tokenExpired:
            // OpenIM leaves the connection until the next handshake, which then fails with 1501.
            return ([], WireClose(code: CloseCode.forCode(KickCode.tokenExpired.rawValue), reason: end.reason))
        case .loggedOut:
            return ([], WireClose(code: CloseCode.normal, reason: "user logout"))
        case .replaced:
            return ([], WireClose(code: CloseCode.normal, reason: end.reason))
        case .outputOverflow:
            return ([], WireClose(code: CloseCode.outputOverflow, reason: end.reason))
        case .loginRefused:
            let error = Self.error(of: end)
            return ([.text(error.json.encodedString)], WireClose(code: CloseCode.normal, reason: error.code.name))
        }
    }

    // MARK: Parts

    /// `{"errCode":0,"errMsg":"","errDlt":""}`: the first text frame of an `isMsgResp` connection.
    static let successJSON = #"{"errCode":0,"errMsg":"","errDlt":""}"#

    private mutating func newTag() -> RequestTag {
        nextTag += 1
        return RequestTag("r" + String(nextTag))  // not interpolated: one string a request
    }

    /// A tag for `request`, remembered until the engine answers it.
    private mutating func remember(_ request: OpenIMGeneralWsReq, clientMsgID: String = "") -> RequestTag {
        let tag = newTag()
        pending.updateValue(
            .request(
                reqIdentifier: request.reqIdentifier, msgIncr: request.msgIncr, operationID: request.operationID,
                clientMsgID: clientMsgID),
            forKey: tag.rawValue)
        return tag
    }

    private func reply(to request: OpenIMGeneralWsReq, data: [UInt8]) -> DialectInput {
        .reply(message(OpenIMResp(reqIdentifier: request.reqIdentifier, msgIncr: request.msgIncr, operationID: request.operationID, data: data)))
    }

    private func reply(to request: OpenIMGeneralWsReq, error: OpenIMError) -> DialectInput {
        .reply(message(OpenIMResp(request.reqIdentifier, request.msgIncr, request.operationID, error: error)))
    }

    private func message(_ response: OpenIMResp) -> WireMessage { .binary(codec.encode(response)) }
}

extension OpenIMResp {
    /// An error answer: `errCode`, and `errMsg` as the code's name and the details.
    init(_ reqIdentifier: Int, _ msgIncr: String, _ operationID: String, error: OpenIMError) {
        self.init(
            reqIdentifier: reqIdentifier, msgIncr: msgIncr, operationID: operationID, errCode: error.code.rawValue,
            errMsg: error.detail.isEmpty ? error.code.name : "\(error.code.name): \(error.detail)")
    }
}

extension CloseCode {
    /// RFC 6455 "invalid frame payload data": a binary message that is not a frame.
    public static let invalidPayload: UInt16 = 1007
    /// RFC 6455 "policy violation": a request the gateway does not allow.
    public static let policyViolation: UInt16 = 1008
}
