import IMockClient
import IMockCommon
import IMockCore
import IMockNet
import IMockWire

/// What the devices receive: every frame is checked against its request and the connection's
/// state, every message goes to the ledger, every close is matched with what announced it.
extension SoakDriver {
    func received(_ text: String, on connection: SoakConnection) {
        guard let frame = try? ServerFrameParser.parse(text) else {
            return anomaly("an unreadable frame on connection \(connection.serial): \(text.prefix(200))")
        }
        if let end = connection.announcedEnd {
            // A wire may still turn what the server sent before the end into frames (msync's
            // last page, its offline finish): ignored. The imock JSON protocol sends nothing.
            guard connection.transport == .imockJSON else { return }
            return anomaly("\(frame.op) after \(end.op) on connection \(connection.serial)")
        }
        switch frame {
        case .loginOK(let id, _, _, _):
            guard reply(id, on: connection) != nil else { return }
            connection.phase = .live
            report.loginsAccepted += 1
            if connection.draining { drainLoggedIn(connection) }
        case .loginError(let id, let code, let message):
            guard reply(id, on: connection) != nil else { return }
            report.loginsRefused[code, default: 0] += 1
            announce(connection, "login.error", code: code, isKick: false)
            // 104 invalid (revoked: expire-now, an OpenIM kick), 108 expired, 202 another user's.
            if [104, 108, 202].contains(code) { userTokens[user(of: connection)] = nil }
            if connection.draining { anomaly("the drain's login was refused: \(code) \(message)") }
        case .pong:
            break
        case .kicked(let code, _, _):
            report.kicked[code, default: 0] += 1
            announce(connection, "kicked", code: code, isKick: true)
        case .tokenWillExpire:
            report.tokenWarnings += 1
            if !connection.draining, phase == .running, random.chance(0.7), http.inFlight < Self.maximumHTTPInFlight {
                renew(connection)
            }
        case .tokenExpired:
            report.tokenExpiries += 1
            connection.announcedEnd = .init(op: "token.expired", closeCode: 4108, isKick: false)
            userTokens[user(of: connection)] = nil
        case .offlineStart:
            connection.inOfflineSync = true
        case .message(let message):
            receivedMessage(message.text, id: message.messageId, from: message.from, on: connection)
        case .offlineFinish:
            connection.inOfflineSync = false
        case .syncStart, .syncFinish:
            break
        case .renewTokenOK(let id, _):
            if reply(id, on: connection) != nil { report.renewalsAccepted += 1 }
        case .logoutOK(let id):
            guard reply(id, on: connection) != nil else { return }
            report.logouts += 1
            connection.announcedEnd = .init(op: "logout.ok", closeCode: 1000, isKick: false)
        case .devicesOK(let id, _):
            guard reply(id, on: connection) != nil else { return }
            if connection.draining { drainSynced(connection) }
        case .sendOK(let id, let messageID, _):
            guard case .send(let seq) = reply(id, on: connection) else { return }
            guard let number = UInt64(messageID) else { return anomaly("send.ok with message id \(messageID)") }
            ledger.accepted(seq, messageID: number, atMs: nowMs)
        case .ackOK(let id):
            guard case .ack(let seq) = reply(id, on: connection) else { return }
            // Only a server's ack bounds later offline syncs. msync's and the gateway's wires answer
            // an ack themselves: msync confirms the page on its next pull, which a login elsewhere
            // may overtake; the gateway acks a message when its pull returns it, and a live push
            // not at all (the device's TCP confirms it, and a drop before that gives it back).
            guard connection.transport == .imockJSON else { return }
            ledger.ackConfirmed(seq, nextSerial: nextSerial)
        case .error(let id, let code, let message, _):
            refused(id, code: code, message: message, on: connection)
        }
    }

    /// The request a reply answers (and forgets it); a reply to nothing is an anomaly.
    private func reply(_ id: String, on connection: SoakConnection) -> SoakConnection.Request? {
        guard let request = connection.pending.removeValue(forKey: id) else {
            anomaly("a reply to no request (id \(id)) on connection \(connection.serial)")
            return nil
        }
        return request.request
    }

    private func announce(_ connection: SoakConnection, _ op: String, code: Int, isKick: Bool) {
        // Application close codes end at 4999 (OpenIM's 2002 closes with 4999).
        let close = UInt16(clamping: code >= 1000 ? 4999 : 4000 + code)
        connection.announcedEnd = .init(op: op, closeCode: close, isKick: isKick)
    }

    /// Whether `code` closes what `end` announced. A dialect other than imock JSON says less in
    /// its goodbye than its close: the gateway's 2002 push stands for every kick (its close has
    /// the kick's code, 4000 + code), and its refused login closes with 1000.
    private func closes(_ end: SoakConnection.AnnouncedEnd, with code: UInt16, on connection: SoakConnection) -> Bool {
        if code == end.closeCode { return true }
        guard connection.transport != .imockJSON else { return false }
        return end.isKick ? code == 1000 || (4000...4999).contains(code) : end.op == "login.error" && code == 1000
    }

    /// An `error` frame: the refusals the load expects, or an anomaly.
    private func refused(_ id: String?, code: Int, message: String, on connection: SoakConnection) {
        guard let id, let request = reply(id, on: connection) else {
            return anomaly("error \(code) \(message) on connection \(connection.serial)")
        }
        switch (request, code) {
        case (.send(let seq), 4):
            ledger.refused(seq, code: code)
        case (.ack, 500):
            // Acked twice, or a live message acked on a lossy connection (it was never queued).
            break
        case (.renew, 104), (.renew, 108):
            report.renewalsRefused += 1
        default:
            if case .send(let seq) = request { ledger.refused(seq, code: code) }
            anomaly("error \(code) \(message) to \(request) on connection \(connection.serial)")
        }
    }

    /// A message: to the ledger; acked when it came offline (or when the connection is lossy
    /// and cannot tell), four times in five during the load and always in the drain.
    private func receivedMessage(_ text: String, id: String, from sender: String, on connection: SoakConnection) {
        guard text.hasPrefix("soak "), let seq = Int(text.dropFirst(5).prefix { $0 != " " }), let messageID = UInt64(id) else {
            return anomaly("a message that is not the soak's: \(text.prefix(60)) id \(id)")
        }
        let offline = connection.inOfflineSync
        // msync and the gateway deliver per conversation (a queue, a seq range): in order per
        // sender, not across senders; the gateway's pushes may overtake its offline pull.
        let orderedPer = connection.transport == .imockJSON ? "" : sender + (offline ? "/offline" : "/live")
        ledger.received(
            seq, messageID: messageID, on: connection.serial, offline: offline, orderedPer: orderedPer,
            tellsOfflineFromLive: connection.transport != .msync)
        guard offline || connection.lossy, connection.draining || random.chance(0.8) else { return }
        connection.send({ #"{"op":"ack","id":"\#($0)","messageId":"\#(id)"}"# }, as: .ack(seq: seq), atMs: nowMs)
    }

    /// The connection ended: its close checked against what announced it.
    func closed(_ connection: SoakConnection, code: UInt16, reason: String) {
        let serverClosed = code != 1006 && !connection.aborted
        // A stalled device may be closed for what it held (1008), or cut at the server's close
        // timer before it read the close (1006): what announced the end may be lost with it.
        // A device of a flooded user, or a narrow one, may get more than the cap in one burst
        // (an offline sync of what a flood left queued; OpenIM and msync hold a whole sync
        // until it is pulled): closed by the same rule.
        let heldTooMuch = code == 1008 && (connection.narrow || floodedUsers.contains(user(of: connection)))
        let stallEnd = !connection.aborted && (connection.stalled && (code == 1008 || code == 1006) || heldTooMuch)
        if stallEnd { report.stallCloses += 1 }
        if connection.announcedEnd == nil, connection.transport != .imockJSON, code == 4108 {
            // msync says the expiry with a server time past it, the gateway not at all: the
            // close is the announcement.
            report.tokenExpiries += 1
            userTokens[user(of: connection)] = nil
            connection.announcedEnd = .init(op: "token.expired", closeCode: 4108, isKick: false)
        }
        if let end = connection.announcedEnd {
            if closes(end, with: code, on: connection) {
                if end.isKick { report.kicksClosed += 1 }
            } else if !serverClosed && connection.lossy || stallEnd {
                if end.isKick { report.kicksCutByFault += 1 }
            } else if !serverClosed {
                if end.isKick { report.kicksWithoutClose += 1 } else { anomaly("\(end.op) without its close on connection \(connection.serial)") }
            } else {
                anomaly("close \(code) after \(end.op) on connection \(connection.serial), expected \(end.closeCode)")
            }
        } else if stallEnd {
            // counted above
        } else if !serverClosed {
            if !connection.lossy {
                anomaly("connection \(connection.serial) dropped (\(code)) without a fault")
            } else if !connection.aborted {
                report.faultDrops += 1
            }
        } else if !connection.lossy, !(phase == .finished && code == 1001) {
            anomaly("close \(code) \(reason) on connection \(connection.serial) with nothing announcing it")
        }
        ledger.connectionEnded(connection.serial, serverClosed: serverClosed, atMs: nowMs)
        if !serverClosed, connection.lossy, connection.phase != .connecting {
            unsettled[connection.serial] = (user(of: connection), connection.resource, 0)
        }
        forget(connection)
    }

    /// Gives up on connections whose request got no reply for ``replyTimeoutMs``: the frame was
    /// dropped by a fault, or the server failed to answer (an anomaly when no fault touched it).
    func watchdog() {
        let now = nowMs
        for connection in connections.values where connection.phase != .ended {
            guard let oldest = connection.pending.values.map(\.sentAtMs).min(), now - oldest > Self.replyTimeoutMs else { continue }
            if !connection.lossy { anomaly("no reply within \(Self.replyTimeoutMs / 1000) s on connection \(connection.serial)") }
            markLossy(connection)
            report.deviceAborts += 1
            connection.abort(reset: false)
        }
    }
}
