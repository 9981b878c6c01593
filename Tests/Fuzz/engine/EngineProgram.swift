import IMockCommon
import IMockCore

/// The fuzz input read as a program of events against one `Domain`, played the way the server's
/// shell plays them (monotonic clock, timers fired at their deadlines in order, closes reported
/// after ends), with every batch checked by `EngineInvariants`.
struct EngineProgram {
    private var input: InputReader
    private var domain: Domain
    private var invariants = EngineInvariants()
    private var nowMs: Int64
    private var nextConnection: UInt64 = 1
    private var nextTag = 0
    /// Tokens to log in and renew with: issued ones, app tokens and junk.
    private var tokens: [String] = ["", "YWMt", "YWMt.", "not a token"]
    /// Message ids the engine assigned, for acks and overflows.
    private var messageIDs: [String] = []
    private var operations = 0

    static let emApp = try! AppKey(parsing: "fz#em")
    static let oiApp = try! AppKey(parsing: "fz#oi")
    static let apps = [emApp, oiApp]
    static let appKeys = ["fz#em", "fz#oi", "fz#gone", "FZ#EM", "no key", ""]
    static let usernames = ["alice", "bob", "carol", "ALICE", "zed", "", "a b", "x/y"]
    static let uuids = ["u1", "u2", "u3", "", "a/b"]
    static let resources: [String?] = [nil, nil, "r1", "r2", "", "x/y"]
    static let maximumOperations = 400

    static let policies: [LoginPolicy] = [
        .easemobDefault,
        .easemob(EasemobLoginPolicy(mode: .multiDevice(try! EasemobDeviceLimits(defaultLimit: 1)))),
        .easemob(EasemobLoginPolicy(mode: .multiDevice(try! EasemobDeviceLimits(defaultLimit: 0)))),
        .easemob(EasemobLoginPolicy(mode: .multiDevice(try! EasemobDeviceLimits(defaultLimit: 2)), keepCurrentDevice: true)),
        .easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld))),
        .easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins))),
        .easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld), keepCurrentDevice: true)),
        .openIM(.defaultNotKick), .openIM(.allLoginButSameTermKick), .openIM(.allLoginButSameClassKick), .openIM(.pcAndOther),
    ]

    init(_ bytes: [UInt8]) {
        input = InputReader(bytes)
        let configuration = SessionEngineConfiguration(
            tokenWarningPercent: Int(input.byte()), maximumOfflineMessagesPerUser: input.below(6))
        nowMs = min(max(input.int64(), 0), ValueLimits.maximumEpochMs)
        let users = ["alice", "bob", "carol"].map { SeedUser(username: $0) }
        let document = SeedDocument(apps: [
            SeedApp(appKey: Self.emApp, settings: AppSettings(loginPolicy: .easemobDefault), clientID: "YXA6em",
                    clientSecret: "YXA6emSecret", signingKey: Array(0..<32), users: users),
            SeedApp(appKey: Self.oiApp, settings: AppSettings(loginPolicy: .openIM(.allLoginButSameTermKick)),
                    clientID: "YXA6oi", clientSecret: "YXA6oiSecret", signingKey: Array(32..<64), users: users),
        ])
        var directory = try! document.makeDirectory(
            settings: DirectorySettings(passwordIterations: 1, random: RandomSource(seed: 1)), nowMs: nowMs)
        for (app, secret) in [(Self.emApp, "YXA6emSecret"), (Self.oiApp, "YXA6oiSecret")] {
            let id = app == Self.emApp ? "YXA6em" : "YXA6oi"
            if let token = try? directory.issueAppToken(in: app, clientID: id, clientSecret: secret, ttlSeconds: nil, nowMs: nowMs) {
                tokens.append(token.token)
            }
        }
        domain = Domain(directory: directory, engine: SessionEngine(configuration: configuration, decider: AppLoginDecider()))
    }

    mutating func run() {
        while !input.isAtEnd, operations < Self.maximumOperations {
            operations += 1
            step()
        }
        // The end of the run: the clock runs out and every connection closes.
        advance(by: Int64.max)
        for connection in invariants.links.keys.sorted() { close(connection) }
        check(domain.engine.pendingTokenTimerCount == 0,
              "\(domain.engine.pendingTokenTimerCount) token timers pending after every connection closed")
        invariants.checkAgreement(with: domain, apps: Self.apps, "the end")
    }

    private mutating func step() {
        switch input.below(24) {
        case 0, 1: open()
        case 2: close(pickConnection())
        case 3, 4, 5: login()
        case 6: command(.ping(input.bool() ? nil : makeTag()))
        case 7: command(.renewToken(makeTag(), token: pickToken()))
        case 8: command(.logout(makeTag(), unbindDeviceToken: input.bool()))
        case 9: command(.devices(makeTag()))
        case 10, 11: send()
        case 12: ack()
        case 13, 14: issueToken()
        case 15: advance(by: input.bool() ? input.int64() : Int64(input.byte()) * 60_000)
        case 16: fireDueTimers()
        case 17: wakeEarly()
        case 18: kick()
        case 19: expireOrRevoke()
        case 20: changeSettings()
        case 21: changeUser()
        case 22: replaceState()
        default: overflow()
        }
    }

    // MARK: Connections and commands

    private mutating func open() {
        let connection = ConnectionID(nextConnection)
        nextConnection += 1
        invariants.opened(connection)
        let outputs = domain.connectionOpened(connection, nowMs: nowMs)
        invariants.checkBatch(outputs, request: nil, nowMs: nowMs, "open \(connection)")
        invariants.checkAgreement(with: domain, apps: Self.apps, "open \(connection)")
    }

    /// The shell reports a close: no output (the session's timers leave the engine's queue).
    private mutating func close(_ connection: ConnectionID) {
        let outputs = domain.connectionClosed(connection, nowMs: nowMs)
        check(outputs.isEmpty, "a close of \(connection) answered with \(outputs)")
        invariants.checkBatch(outputs, request: nil, nowMs: nowMs, "close \(connection)")
        invariants.closed(connection)
        invariants.checkAgreement(with: domain, apps: Self.apps, "close \(connection)")
    }

    private mutating func login() {
        let platform: DevicePlatform
        switch input.below(9) {
        case 0: platform = .easemob(.ios)
        case 1: platform = .easemob(.android)
        case 2: platform = .easemob(.windows)
        case 3: platform = .easemob(.web)
        case 4: platform = .easemob(.linux)
        case 5: platform = .easemob(.custom(Int(truncatingIfNeeded: input.int64())))
        case 6: platform = .easemob(.custom(Int(input.byte() % 4)))
        default: platform = .openIM(OpenIMPlatform(rawValue: 1 + input.below(11)) ?? .ios)
        }
        let extensionInfo = [String](["", "ext", String(repeating: "e", count: LoginDevice.maxExtensionInfoLength + 1)])
        let device = DeviceDescription(
            platform: platform, name: input.pick(["", "Pixel"]), uuid: input.pick(Self.uuids),
            resource: input.pick(Self.resources), extensionInfo: input.pick(extensionInfo))
        let sync = SyncType.allCases.filter { _ in input.bool() }
        let request = LoginRequest(
            appKey: input.pick(Self.appKeys), user: input.pick(Self.usernames), token: pickToken(), device: device,
            autoLogin: input.bool(), sync: sync)
        command(.login(makeTag(), request))
    }

    private mutating func send() {
        command(.send(makeTag(), to: input.pick(Self.usernames), text: input.pick(["hi", ""])))
    }

    private mutating func ack() {
        let id: String
        switch input.below(3) {
        case 0 where !messageIDs.isEmpty: id = input.pick(messageIDs)
        case 1: id = String(input.int64())
        default: id = String(decoding: input.bytes(input.below(24)), as: UTF8.self)
        }
        command(.ack(makeTag(), messageId: id))
    }

    /// A command on a connection, with the command faults the shell could roll for it.
    private mutating func command(_ command: SessionCommand) {
        let connection = pickConnection()
        let faultByte = input.byte()
        let faults = CommandFaults(
            failingSyncTypes: Set(SyncType.allCases.enumerated().filter { faultByte & (1 << $0.offset) != 0 }.map(\.element)),
            failUnbind: faultByte & 8 != 0)
        var loginApp: AppKey?
        var isLogin = false
        if case .login(_, let request) = command {
            isLogin = true
            loginApp = try? AppKey(parsing: request.appKey)
        }
        // Who should get a message, judged before it is sent.
        var recipients: (app: AppKey, user: String, live: Set<ConnectionID>)?
        if case .send(_, let to, _) = command, case .live(let app) = invariants.links[connection] {
            recipients = (app, to, Set(domain.engine.sessions(of: to, in: app).map(\.connection)))
        }
        let outputs = domain.engine.handle(command, on: connection, faults: faults, nowMs: nowMs, directory: &domain.directory)
        let what = "\(command) on \(connection)"
        invariants.checkBatch(
            outputs, request: .init(connection: connection, tag: command.tag, loginApp: loginApp, isLogin: isLogin), nowMs: nowMs,
            what)
        invariants.checkAgreement(with: domain, apps: Self.apps, what)
        for output in outputs {
            switch output {
            case .reply(_, _, .sent(let id, _)):
                messageIDs.append(id)
                if let recipients { checkDelivery(of: id, to: recipients, outputs: outputs) }
            case .reply(_, _, .acked):
                if case .ack(_, let id) = command, case .live(let app) = invariants.links[connection] {
                    let user = domain.engine.sessions(in: app).first { $0.connection == connection }?.user ?? ""
                    check(!domain.engine.offlineMessages(of: user, in: app).contains { $0.messageId == id }, "acked \(id) still queued")
                }
            default:
                break
            }
        }
    }

    /// A sent message went live to every session its recipient had, or waits offline.
    private func checkDelivery(of id: String, to recipients: (app: AppKey, user: String, live: Set<ConnectionID>), outputs: [SessionOutput]) {
        var targets: Set<ConnectionID> = []
        for case .push(let connection, .message(let message)) in outputs where message.messageId == id {
            targets.insert(connection)
        }
        check(targets == recipients.live, "message \(id) went to \(targets.sorted()), the recipient had \(recipients.live.sorted())")
        if recipients.live.isEmpty {
            check(domain.engine.offlineMessages(of: recipients.user, in: recipients.app).contains { $0.messageId == id },
                  "message \(id) to an offline user is not queued")
        }
        check(domain.engine.undeliveredMessages(of: recipients.user, in: recipients.app).contains { $0.messageId == id },
              "message \(id) is not queued until a device confirms it")
    }

    // MARK: Tokens and the clock

    private mutating func issueToken() {
        let app = input.pick(Self.apps)
        let user = input.pick(Self.usernames)
        let ttl: Int64? = switch input.below(4) {
        case 0: nil
        case 1: input.int64()
        case 2: Int64(input.byte())
        default: Int64(input.byte()) * 3600
        }
        if input.bool(), let issued = try? domain.directory.issueUserToken(in: app, username: user, password: "pw", ttlSeconds: ttl, nowMs: nowMs) {
            tokens.append(issued.token.token)
        } else if let issued = try? domain.directory.issueInheritedUserToken(
            in: app, username: user, autoCreateUser: input.bool(), ttlSeconds: ttl, nowMs: nowMs)
        {
            tokens.append(issued.token.token)
        }
    }

    /// Moves the clock forward by `amount` (saturated at the last representable time), firing
    /// the engine's wake-up at its deadline, each asking for the next (the Timeline's order).
    private mutating func advance(by amount: Int64) {
        let target = min(nowMs.addingReportingOverflow(max(amount, 0)).overflow ? Int64.max : nowMs + max(amount, 0),
                         ValueLimits.maximumEpochMs)
        fireTimers(until: max(target, nowMs))
        nowMs = max(target, nowMs)
    }

    private mutating func fireDueTimers() { fireTimers(until: nowMs) }

    private mutating func fireTimers(until limit: Int64) {
        var fired = 0
        while let deadline = invariants.wakeAtMs, deadline <= limit {
            fired += 1
            check(fired <= 10_000, "wake-ups keep becoming due")
            nowMs = max(nowMs, deadline)
            invariants.wakeAtMs = nil
            let outputs = domain.fireDueTimers(nowMs: nowMs)
            invariants.checkBatch(outputs, request: nil, nowMs: nowMs, "the wake-up at \(deadline)")
            invariants.checkAgreement(with: domain, apps: Self.apps, "the wake-up at \(deadline)")
        }
    }

    /// A wake-up before any timer is due (the shell's one wake-up for timers since cancelled,
    /// or a late one) fires nothing and at most asks for the next wake-up again.
    private mutating func wakeEarly() {
        guard invariants.wakeAtMs.map({ $0 > nowMs }) ?? true else { return }
        let outputs = domain.fireDueTimers(nowMs: nowMs)
        check(outputs.allSatisfy { if case .wake = $0 { true } else { false } }, "an early wake-up fired \(outputs)")
        invariants.checkBatch(outputs, request: nil, nowMs: nowMs, "an early wake-up")
        invariants.checkAgreement(with: domain, apps: Self.apps, "an early wake-up")
    }

    // MARK: Control commands and REST effects

    private mutating func kick() {
        let app = input.pick(Self.apps)
        let user = input.pick(Self.usernames)
        let resource = input.bool() ? nil : domain.engine.sessions(of: user, in: app).first.map(\.device.resource)
        let code = input.bool() ? Int(truncatingIfNeeded: input.int64()) : input.pick([206, 207, 217, 2002, 0, -1])
        let by = input.bool() ? KickedBy(deviceName: "new", extensionInfo: "x") : nil
        let outputs = (try? domain.kick(app: app, user: user, resource: resource, code: code, reason: "fuzz", by: by, nowMs: nowMs))?.outputs
        control(outputs ?? [], "kick \(user) of \(app) with \(code)")
    }

    private mutating func expireOrRevoke() {
        let app = input.pick(Self.apps)
        let user = input.pick(Self.usernames)
        if input.bool() {
            control((try? domain.expireTokens(of: user, in: app, nowMs: nowMs))?.outputs ?? [], "expire \(user)'s tokens")
        } else {
            _ = try? domain.revokeAllTokens(of: user, in: app)
        }
    }

    private mutating func changeSettings() {
        let app = input.pick(Self.apps)
        guard var settings = try? domain.app(app).settings else { return }
        switch input.below(4) {
        case 0: settings.serviceEnabled.toggle()
        case 1: settings.loginPolicy = input.pick(Self.policies)
        case 2: settings.activeUserLimit = input.pick([nil, 0, 1, 2, Int(truncatingIfNeeded: input.int64())])
        default: settings.defaultTokenTTLSeconds = input.bool() ? input.int64() : Int64(input.byte())
        }
        control((try? domain.updateSettings(settings, of: app, nowMs: nowMs))?.outputs ?? [], "settings of \(app)")
    }

    /// What a REST call does: the directory changes first, then the live side feels it.
    private mutating func changeUser() {
        let app = input.pick(Self.apps)
        let user = input.pick(Self.usernames)
        var changes: [DomainChange] = []
        switch input.below(6) {
        case 0:
            changes = [.disconnectUser(app, username: user, resource: input.bool() ? nil : input.pick(Self.resources) ?? "r1")]
        case 1:
            if (try? domain.directory.deleteUser(user, in: app)) != nil { changes = [.userDeleted(app, username: user)] }
        case 2:
            if (try? domain.directory.changePassword(user, to: "pw2", in: app, nowMs: nowMs)) != nil {
                changes = [.passwordChanged(app, username: user)]
            }
        case 3:
            if (try? domain.directory.setActivated(false, user: user, in: app, nowMs: nowMs)) != nil {
                changes = [.userDeactivated(app, username: user)]
            }
        case 4:
            _ = try? domain.directory.setActivated(true, user: user, in: app, nowMs: nowMs)
        default:
            _ = try? domain.directory.registerUser(NewUser(username: user, password: "pw"), in: app, nowMs: nowMs)
        }
        control(domain.apply(changes, nowMs: nowMs), "REST change \(changes)")
    }

    private mutating func replaceState() {
        let app = input.pick(Self.apps)
        switch input.below(5) {
        case 0: control((try? domain.reset(app, nowMs: nowMs))?.outputs ?? [], "reset \(app)")
        case 1: control((try? domain.resetAll(nowMs: nowMs))?.outputs ?? [], "reset all")
        case 2: _ = try? domain.saveCheckpoint("c", of: app)
        case 3: control((try? domain.restoreCheckpoint("c", of: app, nowMs: nowMs))?.outputs ?? [], "restore \(app)")
        default: control((try? domain.seed(domain.startSeed, nowMs: nowMs))?.outputs ?? [], "seed")
        }
    }

    /// The shell found the connection's client not reading (only while its channel is open),
    /// after its TCP acknowledged some of the live messages pushed to it.
    private mutating func overflow() {
        let connection = pickConnection()
        guard invariants.links[connection] != nil else { return }
        let pushed = invariants.livePushes[connection] ?? []
        domain.delivered(connection, messageIDs: pushed.prefix(input.below(pushed.count + 1)).map(\.messageId))
        let outputs = domain.outputOverflowed(connection, nowMs: nowMs)
        control(outputs, "output overflow of \(connection)")
    }

    private mutating func control(_ outputs: [SessionOutput], _ what: String) {
        invariants.checkBatch(outputs, request: nil, nowMs: nowMs, what)
        invariants.checkAgreement(with: domain, apps: Self.apps, what)
    }

    // MARK: Choices

    /// Mostly a connection the shell has open; sometimes any id, never opened or closed.
    private mutating func pickConnection() -> ConnectionID {
        let open = invariants.links.keys.sorted()
        if !open.isEmpty, input.below(4) != 0 { return input.pick(open) }
        return ConnectionID(UInt64(input.below(Int(nextConnection) + 1)))
    }

    private mutating func pickToken() -> String { input.pick(tokens) }

    private mutating func makeTag() -> RequestTag {
        nextTag += 1
        return RequestTag("t\(nextTag)")
    }
}

/// The input, read front to back; past its end every read gives zeros.
struct InputReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in byte() } }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(byte()) % bound }

    mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

    /// Eight bytes, little-endian: the dictionary's integer edges land here whole.
    mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return Int64(bitPattern: value)
    }
}
