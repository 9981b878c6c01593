import IMockCore
import IMockWire

/// The reference client over msync (docs/PROTOCOL-MSYNC.md), behaving as the Easemob Web SDK
/// does on the wire: `login` is a PROVISION, `ping` an UNREAD (its answer is the pong), a
/// `send` a CHAT meta acked by `metaId`. After login it sends UNREAD; queues listed in the
/// answer are the offline sync (offline start … finish); each queue is pulled page by page,
/// every page confirmed with its `nextKey`; a NOTICE pulls its queue. STATISTIC metas are
/// kicks, an unsolicited PROVISION failure a kick with the code its status says; an UNREAD
/// answer whose server time reaches the token's expiry ends the session as expired, an
/// unsolicited one before it is the token's warning. A kick's close is `4000 + code`.
///
/// What msync does not carry is answered here: `ack` (pages are confirmed by key), `devices`
/// and `renewToken` (REST in the Web SDK; refused with 110). Data-sync types are not asked
/// for: msync has no data-sync frames.
final class MsyncClientWire: ClientWire {
    /// The error code of requests msync cannot carry.
    static let notCarried = 110

    private var appKey = ""
    private var user = ""
    private var pendingLogin: RequestTag?
    /// Answers due to UNREADs sent, oldest first.
    private var pendingPings: [PingOrigin] = []
    private var pendingSends: [UInt64: RequestTag] = [:]
    private var pendingLogout: RequestTag?
    private var nextMetaID: UInt64 = 1
    private var tokenExpiresAt: Int64?
    private var warnedFor: Int64?
    private var expired = false
    /// Queues being pulled.
    private var pulling: Set<String> = []
    private var offlineSync = OfflineSync.notStarted

    /// Who sent an UNREAD: the state machine's `ping` (its tag may be nil), or the wire itself
    /// (the one after login).
    private enum PingOrigin {
        case ping(RequestTag?)
        case wire
    }

    private enum OfflineSync {
        case notStarted
        case running(Set<String>)
        case done
    }

    func upgradeTarget(endpointPath: String) -> String {
        endpointPath == ImockJSONDialect.path ? MsyncDialect.path : endpointPath
    }

    /// A kick ends with close `4000 + code`, as in the imock JSON protocol.
    func sessionEndCode(ofClose code: UInt16?) -> Int? { KickCloseCode.sessionEndCode(of: code) }

    // MARK: Requests to messages

    func encode(_ request: SessionCommand) -> ClientWireOutput {
        switch request {
        case .login(let id, let request):
            pendingLogin = id
            appKey = request.appKey
            user = request.user
            return ClientWireOutput(send: [provision(request)])
        case .ping(let id):
            pendingPings.append(.ping(id))
            return ClientWireOutput(send: [envelope(.unread, MsyncPB.CommUnreadUL())])
        case .send(let id, let to, let text):
            let metaId = nextMetaID
            nextMetaID += 1
            pendingSends[metaId] = id
            // `CommSyncUL.send(.text(…))`, its meta and body written in place.
            let (from, to) = (jid(user), jid(to))
            let bytes = MsyncEnvelope.bytes(version: .msyncV1, command: .sync) { upload in
                upload.writeTag(field: 1, wireType: .lengthDelimited)
                upload.writeLengthDelimited { meta in
                    MsyncPB.Meta.writeText(id: metaId, from: from, to: to, text: text, timestamp: nil, to: &meta)
                }
            }
            return ClientWireOutput(send: [.binary(bytes)])
        case .logout(let id, _):
            pendingLogout = id
            var logout = MsyncPB.Logout()
            logout.reason = "inner:logout"
            return ClientWireOutput(send: [envelope(.logout, logout)])
        case .ack(let id, _):
            return ClientWireOutput(said: [.reply(id, .acked)])
        case .devices(let id):
            return refused(id, "msync has no device listing (the Web SDK asks GET …/users/{user}/resources)")
        case .renewToken(let id, _):
            return refused(id, "msync renews tokens over REST (GET …/sdk/users/{user}/token/expires)")
        }
    }

    private func refused(_ id: RequestTag, _ message: String) -> ClientWireOutput {
        ClientWireOutput(said: [.reply(id, .refused(ClientError(code: Self.notCarried, message: message), field: nil))])
    }

    private func provision(_ request: LoginRequest) -> WireMessage {
        var provision = MsyncPB.Provision()
        switch request.device.platform {
        case .easemob(let platform):
            (provision.osType, provision.osCustomValue) = Self.osType(platform)
        case .openIM:
            provision.osType = .unrecognized(-1)  // not an Easemob device: the server refuses it
        }
        provision.version = "imock"
        provision.compressType = [.none]
        provision.encryptType = [.none]
        provision.deviceUuid = request.device.uuid
        provision.deviceName = request.device.name
        provision.resource = request.device.resource
        provision.isManualLogin = !request.autoLogin
        provision.authToken = JSONValue.object([("token", .string(MsyncProvision.tokenPrefix + request.token))]).encodedString
        provision.reason = request.device.extensionInfo.isEmpty ? nil : request.device.extensionInfo
        var msync = MsyncPB.MSync(command: .provision, payload: provision)
        msync.version = .msyncV1
        msync.guid = jid(request.user, resource: request.device.resource)
        msync.auth = MsyncProvision.tokenPrefix + request.token
        msync.encryptType = [.none]
        return .binary(msync.protobufBytes())
    }

    private static func osType(_ platform: EasemobPlatform) -> (MsyncPB.Provision.OsType, UInt32?) {
        switch platform {
        case .ios: (.ios, nil)
        case .android: (.android, nil)
        case .linux: (.linux, nil)
        case .macos: (.osx, nil)
        case .windows: (.win, nil)
        case .web: (.other, nil)
        case .custom(let value): (.custom, UInt32(clamping: value))
        }
    }

    // MARK: Messages to what the server said

    func decode(_ message: WireMessage) -> ClientWireOutput {
        if case .binary(let bytes) = message, let output = decodeInPlace(bytes) { return output }
        let msync: MsyncPB.MSync
        do throws(MsyncWireError) {
            msync = try MsyncEnvelope.read(message).0
        } catch {
            return .unreadable(error.description)
        }
        do throws(ProtobufError) {
            switch msync.command ?? .sync {
            case .provision: return provisionResult(try msync.decodePayload(as: MsyncPB.Provision.self))
            case .unread: return unreadAnswer(try msync.decodePayload(as: MsyncPB.CommUnreadDL.self))
            case .sync: return syncAnswer(try msync.decodePayload(as: MsyncPB.CommSyncDL.self))
            case .notice: return notice(try msync.decodePayload(as: MsyncPB.CommNotice.self))
            case .logout: return logoutResult(try msync.decodePayload(as: MsyncPB.Logout.self))
            case .unrecognized(let value):
                return .unreadable("unknown msync command \(value)")
            }
        } catch {
            return .unreadable("msync payload: \(error)")
        }
    }

    /// The frames of a message's path (a SYNC answer or page, a NOTICE) read with their
    /// payload in place (``MsyncEnvelope/payloadInPlace(_:)``): no `MSync` value, no copy of the
    /// payload. Anything else, and anything malformed, is nil: the general path reads it (and
    /// words its error) as before.
    private func decodeInPlace(_ bytes: [UInt8]) -> ClientWireOutput? {
        guard let (command, reader) = MsyncEnvelope.payloadInPlace(bytes) else { return nil }
        var payload = reader
        do throws(ProtobufError) {
            switch command {
            case .sync:
                if let page = MsyncPageScanner.scan(payload: payload) { return scannedPage(page) }
                return syncAnswer(try MsyncPB.CommSyncDL(protobuf: &payload))
            case .notice: return notice(try MsyncPB.CommNotice(protobuf: &payload))
            default: return nil
            }
        } catch {
            return nil
        }
    }

    private func provisionResult(_ provision: MsyncPB.Provision) -> ClientWireOutput {
        let status = provision.status ?? MsyncPB.Status()
        let (code, message) = MsyncStatusTable.code(of: status)
        guard let id = pendingLogin else {
            // Unasked: a kick with a code the SDK has no statistic operation for.
            guard code != 0 else { return ClientWireOutput() }
            return ClientWireOutput(said: [.end(.kicked(code: code, reason: message, by: nil))])
        }
        pendingLogin = nil
        guard code == 0 else { return ClientWireOutput(said: [.reply(id, .loginRefused(ClientError(code: code, message: message)))]) }
        tokenExpiresAt = MsyncProvision.expiresAt(replyAuthToken: provision.authToken)
        pendingPings.append(.wire)
        let accepted = ServerReply.loginAccepted(resource: provision.resource ?? "", tokenExpiresAt: tokenExpiresAt, serverTime: 0)
        return ClientWireOutput(send: [envelope(.unread, MsyncPB.CommUnreadUL())], said: [.reply(id, accepted)])
    }

    private func unreadAnswer(_ answer: MsyncPB.CommUnreadDL) -> ClientWireOutput {
        var output = ClientWireOutput()
        let serverTime = Int64(clamping: answer.timestamp ?? 0)
        let isReply = !pendingPings.isEmpty
        if isReply, case .ping(let id) = pendingPings.removeFirst() {
            output.inputs.append(.success(.reply(id, .pong(serverTime: serverTime))))
        }
        if let expiresAt = tokenExpiresAt, !expired {
            if serverTime >= expiresAt {
                expired = true
                output.inputs.append(.success(.end(.tokenExpired)))
                return output
            }
            if !isReply, warnedFor != expiresAt {
                warnedFor = expiresAt
                output.inputs.append(.success(.push(.tokenWillExpire(expiresAt: expiresAt))))
            }
        }
        let queues = answer.unread.compactMap { entry in entry.queue?.name.map { ($0, Int(entry.n ?? 0)) } }
        if case .notStarted = offlineSync, isReply {
            if queues.isEmpty {
                offlineSync = .done
            } else {
                offlineSync = .running(Set(queues.map(\.0)))
                output.inputs.append(.success(.push(.offlineStart(count: queues.reduce(0) { $0 + $1.1 }))))
            }
        }
        for (queue, _) in queues { output.send += pull(queue, key: nil) }
        return output
    }

    private func notice(_ notice: MsyncPB.CommNotice) -> ClientWireOutput {
        guard let queue = notice.queue?.name else { return ClientWireOutput() }
        return ClientWireOutput(send: pull(queue, key: nil))
    }

    /// A pull of `queue` unless one is under way (`key` confirms a page and goes on).
    private func pull(_ queue: String, key: UInt64?) -> [WireMessage] {
        guard key != nil || !pulling.contains(queue) else { return [] }
        pulling.insert(queue)
        return [envelope(.sync, MsyncPB.CommSyncUL.pull(jid(queue), key: key))]
    }

    private func syncAnswer(_ answer: MsyncPB.CommSyncDL) -> ClientWireOutput {
        if let metaId = answer.metaId, metaId != 0 { return sendAck(metaId, answer) }
        var output = ClientWireOutput()
        for meta in answer.metas { output.inputs += inputs(of: meta) }
        return pageRead(output, queue: answer.queue?.name, nextKey: answer.nextKey, isLast: answer.isLast)
    }

    /// A page of chat texts read in place (``MsyncPageScanner``): what ``syncAnswer(_:)`` makes
    /// of the same page.
    private func scannedPage(_ page: MsyncPageScanner.Page) -> ClientWireOutput {
        var output = ClientWireOutput()
        for message in page.messages {
            let chat = ChatMessage(
                messageId: String(message.id ?? 0), from: message.from ?? "", to: message.to ?? user, text: message.text,
                timestamp: Int64(clamping: message.timestamp ?? 0))
            output.inputs.append(.success(.push(.message(chat))))
        }
        return pageRead(output, queue: page.queue, nextKey: page.nextKey, isLast: page.isLast)
    }

    /// After a page's messages: the next pull confirming it, or the end of its queue's sync.
    private func pageRead(_ read: ClientWireOutput, queue: String?, nextKey: UInt64?, isLast: Bool?) -> ClientWireOutput {
        var output = read
        guard let queue, pulling.contains(queue) else { return output }
        if isLast == true || nextKey == nil {
            pulling.remove(queue)
            if case .running(var remaining) = offlineSync, remaining.remove(queue) != nil {
                offlineSync = remaining.isEmpty ? .done : .running(remaining)
                if remaining.isEmpty { output.inputs.append(.success(.push(.offlineFinish))) }
            }
        } else {
            output.send += pull(queue, key: nextKey)
        }
        return output
    }

    private func inputs(of meta: MsyncPB.Meta) -> [Result<ServerInput, UnreadableMessage>] {
        switch meta.ns ?? .statistic {
        case .statistic:
            guard let body = try? meta.decodePayload(as: MsyncPB.StatisticsBody.self), let operation = body.operation,
                let code = MsyncKick.code(of: operation)
            else { return [] }
            let by = operation == .userLoginAnotherDevice ? KickedBy(deviceName: "", extensionInfo: body.reason ?? "") : nil
            return [.success(.end(.kicked(code: code, reason: "kicked (\(code))", by: by)))]
        case .chat:
            guard let body = try? meta.decodePayload(as: MsyncPB.MessageBody.self) else {
                return [.failure(UnreadableMessage(reason: "meta.payload: not a MessageBody"))]
            }
            let message = ChatMessage(
                messageId: String(meta.id ?? 0), from: meta.from?.name ?? body.from?.name ?? "",
                to: meta.to?.name ?? body.to?.name ?? user, text: body.contents.first?.text ?? "",
                timestamp: Int64(clamping: meta.timestamp ?? 0))
            return [.success(.push(.message(message)))]
        default:
            return []
        }
    }

    private func sendAck(_ metaId: UInt64, _ answer: MsyncPB.CommSyncDL) -> ClientWireOutput {
        guard let id = pendingSends.removeValue(forKey: metaId) else { return ClientWireOutput() }
        let status = answer.status ?? MsyncPB.Status()
        guard (status.errorCode ?? .ok) != .ok else {
            let sent = ServerReply.sent(messageId: String(answer.serverId ?? 0), timestamp: Int64(clamping: answer.timestamp ?? 0))
            return ClientWireOutput(said: [.reply(id, sent)])
        }
        let reason = status.reason ?? ""
        // The Web SDK's reading: "username … doesn't exist!" is USER_NOT_FOUND.
        let code = reason.contains("username") && reason.contains("doesn't exist!") ? 204 : 500
        return ClientWireOutput(said: [.reply(id, .refused(ClientError(code: code, message: reason), field: nil))])
    }

    private func logoutResult(_ logout: MsyncPB.Logout) -> ClientWireOutput {
        guard let id = pendingLogout else { return ClientWireOutput() }
        pendingLogout = nil
        let status = logout.status ?? MsyncPB.Status()
        guard (status.errorCode ?? .ok) == .ok else {
            let (code, message) = MsyncStatusTable.code(of: status)
            return ClientWireOutput(said: [.reply(id, .refused(ClientError(code: code, message: message), field: nil))])
        }
        return ClientWireOutput(said: [.reply(id, .loggedOut)])
    }

    // MARK: Building

    private func jid(_ name: String, resource: String? = nil) -> MsyncPB.JID {
        MsyncPB.JID(appKey: appKey, name: name, domain: MsyncDialect.userDomain, clientResource: resource)
    }

    private func envelope(_ command: MsyncPB.MSync.Command, _ payload: some ProtobufMessage) -> WireMessage {
        .binary(MsyncEnvelope.bytes(version: .msyncV1, command: command, payload: payload))
    }
}
