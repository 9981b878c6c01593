import IMockClient
import IMockCommon
import IMockCore
import IMockNet

/// The load's actions, picked at random by weight each tick (docs/SOAK.md § What is mixed).
extension SoakDriver {
    enum Action: CaseIterable {
        case login, send, logout, drop, devices, ping, renew, controlKick, restDisconnect, expireNow, advanceClock, fault, stall

        var weight: Int {
            switch self {
            case .login: 24
            case .send: 30
            case .logout: 3
            case .drop: 1
            case .devices: 2
            case .ping: 1
            case .renew: 2
            case .controlKick: 3
            case .restDisconnect: 2
            case .expireNow: 1
            case .advanceClock: 3
            case .fault: 2
            case .stall: 1
            }
        }

        static let totalWeight = allCases.map(\.weight).reduce(0, +)
    }

    func performRandomAction() {
        var roll = Int(random.next() % UInt64(Action.totalWeight))
        let action = Action.allCases.first { action in
            roll -= action.weight
            return roll < 0
        } ?? .send
        let httpFree = http.inFlight < Self.maximumHTTPInFlight
        switch action {
        case .login: login()
        case .send: send()
        case .logout: withLiveConnection { connection in
                connection.send({ #"{"op":"logout","id":"\#($0)","unbindDeviceToken":false}"# }, as: .logout, atMs: nowMs)
            }
        case .drop: dropConnection()
        case .devices: withLiveConnection(speaking: .imockJSON) { connection in connection.send({ #"{"op":"devices","id":"\#($0)"}"# }, as: .devices, atMs: nowMs) }
        case .ping: withLiveConnection { $0.sendUnanswered(#"{"op":"ping"}"#) }
        case .renew where httpFree: withLiveConnection(speaking: .imockJSON) { renew($0) }
        case .controlKick where httpFree: controlKick()
        case .restDisconnect where httpFree: restDisconnect()
        case .expireNow where httpFree: expireNow()
        case .advanceClock where httpFree: advanceClock()
        case .fault where httpFree: createFault()
        case .stall: stallDevice()
        default: break
        }
    }

    // MARK: Devices

    /// A random idle slot logs in with its user's token (fetched first when there is none).
    private func login() {
        let idle = slotConnections.indices.filter { slotConnections[$0] == nil }
        guard !idle.isEmpty else { return }
        let slot = idle[Int(random.next() % UInt64(idle.count))]
        let user = plan.slots[slot].user
        guard let token = userTokens[user] else {
            if http.inFlight < Self.maximumHTTPInFlight { fetchToken(for: user) { _ in } }
            return
        }
        connect(slot: slot, token: token, draining: false, autoLogin: random.chance(0.5))
    }

    /// Opens a connection for `slot` (a device slot, or past them a drain connection of user
    /// `slot - slots.count`) and logs it in.
    func connect(slot: Int, token: String, draining: Bool, autoLogin: Bool) {
        // The drain lists devices, which only the imock JSON protocol can.
        let planned = slot < plan.slots.count && !draining ? plan.slots[slot] : nil
        let connection = SoakConnection(
            serial: nextSerial, slot: slot, draining: draining, transport: planned?.transport ?? .imockJSON,
            platform: planned?.devicePlatform)
        nextSerial += 1
        connection.driver = self
        connections[connection.serial] = connection
        if slot < slotConnections.count { slotConnections[slot] = connection }
        if destructiveFaults[user(of: connection), default: 0] > 0 { connection.lossy = true }
        if !draining { connection.narrow = random.chance(0.25) }
        if let wire = connection.wire, wire.opensAtLogin {
            // OpenIM logs in with the upgrade itself: the login frame names the target.
            sendLogin(connection, token: token, autoLogin: autoLogin)
            guard let target = connection.loginTarget else {
                anomaly("the \(connection.transport.rawValue) wire gave no upgrade target")
                return forget(connection)
            }
            open(connection, path: target) { connection.carryOut(wire.handshakeSucceeded()) }
        } else {
            let path = connection.wire?.upgradeTarget(endpointPath: "/ws") ?? "/ws"
            open(connection, path: path) { [self] in sendLogin(connection, token: token, autoLogin: autoLogin) }
        }
    }

    private func open(_ connection: SoakConnection, path: String, then opened: @escaping () -> Void) {
        WebSocketClient.connect(
            loop: loop, address: socketAddress, host: socketHost, path: path,
            receiveBufferBytes: connection.narrow ? Self.narrowReceiveBufferBytes : nil, delegate: connection
        ) {
            [self] result in
            switch result {
            case .success(let channel):
                connection.channel = channel
                opened()
            case .failure(let error):
                // A connect under way when a crash-restart soak killed the server may fail.
                if !connection.lossy { anomaly("WebSocket connect failed (\(connection.transport.rawValue)): \(error)") }
                // An OpenIM login goes with the upgrade: the server may hold its session, and have
                // pushed to it, although the device never saw it open. It ends as a dropped one.
                guard connection.phase == .loggingIn else { return forget(connection) }
                markLossy(connection)
                closed(connection, code: 1006, reason: "the upgrade failed: \(error)")
            }
        }
    }

    private func sendLogin(_ connection: SoakConnection, token: String, autoLogin: Bool) {
        ledger.connectionStarted(connection.serial, user: user(of: connection), atMs: nowMs)
        if connection.lossy { ledger.connectionLossy(connection.serial) }
        connection.phase = .loggingIn
        report.loginsSent += 1
        report.loginsByDialect[connection.transport.rawValue, default: 0] += 1
        let slot = connection.slot < plan.slots.count
            ? plan.slots[connection.slot]
            : SoakPlan.Slot(
                index: connection.slot, user: user(of: connection), platform: plan.slots.first { $0.user == user(of: connection) }!.platform,
                uuid: "soak-drain-\(user(of: connection))")
        connection.send(
            {
                plan.loginFrame(
                    id: $0, slot: slot, token: token, resource: connection.resource, uuid: connection.uuid, autoLogin: autoLogin)
            }, as: .login, atMs: nowMs)
    }

    /// A connection that ended (or never opened) leaves the tables.
    func forget(_ connection: SoakConnection) {
        connection.phase = .ended
        connection.pending = [:]
        connections[connection.serial] = nil
        if connection.slot < slotConnections.count, slotConnections[connection.slot] === connection {
            slotConnections[connection.slot] = nil
        }
    }

    /// A random live connection; `speaking` narrows it to those of one dialect (the devices
    /// listing and token renewal exist in the imock JSON protocol only).
    func withLiveConnection(speaking transport: ClientTransport? = nil, _ body: (SoakConnection) -> Void) {
        let live = slotConnections.compactMap { $0 }.filter {
            $0.phase == .live && $0.announcedEnd == nil && !$0.stalling && (transport == nil || $0.transport == transport)
        }
        guard !live.isEmpty else { return }
        body(live[Int(random.next() % UInt64(live.count))])
    }

    /// A message to a random user of the sender's app, numbered in sending order.
    private func send() {
        withLiveConnection { connection in
            let app = plan.users[user(of: connection)].app
            let users = plan.users.filter { $0.app == app }
            send(from: connection, to: users[Int(random.next() % UInt64(users.count))].index)
        }
    }

    /// Sends message `soak <n>` (and `padding` after a space) from `connection` to user `recipient`.
    func send(from connection: SoakConnection, to recipient: Int, padding: String = "") {
        let seq = nextSeq
        nextSeq += 1
        ledger.sent(seq, to: recipient, atMs: nowMs)
        let text = padding.isEmpty ? "soak \(seq)" : "soak \(seq) \(padding)"
        let name = plan.users[recipient].name
        connection.send({ #"{"op":"send","id":"\#($0)","to":"\#(name)","text":"\#(text)"}"# }, as: .send(seq: seq), atMs: nowMs)
    }

    /// The device loses its network: FIN or RST, no goodbye.
    private func dropConnection() {
        let open = slotConnections.compactMap { $0 }.filter { $0.phase == .live || $0.phase == .loggingIn }
        guard !open.isEmpty else { return }
        let connection = open[Int(random.next() % UInt64(open.count))]
        markLossy(connection)
        report.deviceAborts += 1
        connection.abort(reset: random.chance(0.5))
    }

    // MARK: Tokens

    /// A fresh user token (`inherit` grant with the app token), stored as the user's.
    func fetchToken(for user: Int, completion: @escaping (String?) -> Void) {
        guard !fetchingTokens.contains(user) else { return completion(nil) }
        fetchingTokens.insert(user)
        let app = plan.apps[plan.users[user].app]
        let body = #"{"grant_type":"inherit","username":"\#(plan.users[user].name)","ttl":\#(plan.tokenTTLSeconds)}"#
        http.call("POST", "/\(app.path)/token", bearer: appTokens[plan.users[user].app], body: body) { [self] answer in
            fetchingTokens.remove(user)
            guard answer.status == 200, let token = answer.body["access_token"]?.stringValue else {
                anomaly("token for \(plan.users[user].name) of \(app.key): \(Self.describe(answer))")
                return completion(nil)
            }
            report.tokensFetched += 1
            userTokens[user] = token
            completion(token)
        }
    }

    /// Renews the connection's token with a fresh one (on an imock JSON connection: the other
    /// dialects renew over REST or not at all, and their sessions end at the expiry).
    func renew(_ connection: SoakConnection) {
        guard connection.wire == nil else { return }
        fetchToken(for: user(of: connection)) { [self] token in
            guard let token, connection.phase == .live, connection.announcedEnd == nil else { return }
            report.renewalsSent += 1
            connection.send({ #"{"op":"renewToken","id":"\#($0)","token":"\#(token)"}"# }, as: .renew, atMs: nowMs)
        }
    }

    // MARK: The control and REST APIs

    /// A user, mostly one with a live device.
    private func randomUser() -> Int {
        let live = slotConnections.compactMap { $0 }.filter { $0.phase == .live }
        if !live.isEmpty, random.chance(0.8) { return user(of: live[Int(random.next() % UInt64(live.count))]) }
        return Int(random.next() % UInt64(plan.users.count))
    }

    private func controlKick() {
        let user = randomUser()
        let codes = [206, 207, 216, 217, 305, 2002, 1234]
        let code = codes[Int(random.next() % UInt64(codes.count))]
        let app = plan.apps[plan.users[user].app]
        report.controlKicks += 1
        http.control("POST", "apps/\(app.path)/kick", body: #"{"user":"\#(plan.users[user].name)","code":\#(code)}"#) { [self] answer in
            expect(answer, [200, 404], "kick")
        }
    }

    private func restDisconnect() {
        let user = randomUser()
        let app = plan.users[user].app
        report.restDisconnects += 1
        http.call("GET", "/\(plan.apps[app].path)/users/\(plan.users[user].name)/disconnect", bearer: appTokens[app]) {
            [self] answer in expect(answer, [200], "REST disconnect")
        }
    }

    /// Expire-now: the user's tokens are revoked and every session ends as expired.
    private func expireNow() {
        let user = randomUser()
        let app = plan.apps[plan.users[user].app]
        report.expireNowCalls += 1
        http.control("POST", "apps/\(app.path)/tokens/expire", body: #"{"user":"\#(plan.users[user].name)"}"#) { [self] answer in
            expect(answer, [200], "expire-now")
            userTokens[user] = nil
        }
    }

    /// Moves the virtual clock 5 s to 5 min: token warnings and expiries fire.
    private func advanceClock() {
        guard !clockAdvancing else { return }
        clockAdvancing = true
        let ms = 5_000 + Int64(random.next() % 295_000)
        http.control("POST", "clock/advance", body: #"{"ms":\#(ms)}"#) { [self] answer in
            clockAdvancing = false
            expect(answer, [200], "clock advance")
            if answer.status == 200 {
                report.clockAdvances += 1
                report.clockAdvancedMs += ms
            }
        }
    }

    /// A network fault on one user for a moment: drop, reset, black hole, dropped frames (the
    /// user's connections become lossy), or delay, held logins, missing pongs.
    private func createFault() {
        guard faultsActive < 3 else { return }
        let user = randomUser()
        let app = plan.apps[plan.users[user].app]
        let target = #""app":"\#(app.key)","user":"\#(plan.users[user].name)""#
        let kinds = ["drop", "reset", "blackhole", "dropFrames", "delay", "holdLogin", "noPong"]
        let kind = kinds[Int(random.next() % UInt64(kinds.count))]
        let body: String
        switch kind {
        case "drop", "reset":
            body = random.chance(0.5) ? #"{"kind":"\#(kind)",\#(target)}"# : #"{"kind":"\#(kind)",\#(target),"durationMs":60000}"#
        case "dropFrames": body = #"{"kind":"dropFrames",\#(target),"count":\#(1 + random.next() % 3)}"#
        case "delay": body = #"{"kind":"delay",\#(target),"ms":\#(20 + random.next() % 280)}"#
        case "holdLogin": body = #"{"kind":"holdLogin",\#(target),"ms":\#(50 + random.next() % 450)}"#
        default: body = #"{"kind":"\#(kind)",\#(target)}"#
        }
        let destructive = ["drop", "reset", "blackhole", "dropFrames"].contains(kind)
        faultsActive += 1
        report.faults[kind, default: 0] += 1
        if destructive {
            destructiveFaults[user, default: 0] += 1
            for connection in connections.values where self.user(of: connection) == user { markLossy(connection) }
        }
        let clearAfter = Duration.milliseconds(200 + Int64(random.next() % 1300))
        http.control("POST", "faults", body: body) { [self] answer in
            expect(answer, [200], "fault \(kind)")
            guard answer.status == 200, let id = answer.body["fault"]?["id"]?.intValue else {
                return faultCleared(user: user, destructive: destructive)
            }
            _ = loop.scheduleTimer(after: clearAfter) { [self] in
                http.control("DELETE", "faults/\(id)") { [self] answer in
                    expect(answer, [200, 404], "fault clear")
                    faultCleared(user: user, destructive: destructive)
                }
            }
        }
    }

    func faultCleared(user: Int, destructive: Bool) {
        faultsActive -= 1
        if destructive { destructiveFaults[user, default: 1] -= 1 }
    }

    /// An answer with an unexpected status is an anomaly (a 400 means the soak sent something
    /// malformed, a 500 a server bug).
    func expect(_ answer: SoakHTTP.Answer, _ statuses: [Int], _ what: String) {
        guard let status = answer.status, statuses.contains(status) else {
            return anomaly("\(what): \(Self.describe(answer))")
        }
    }
}
