import IMockNet

/// `messages`:
/// - `pairs`: `--pairs` pairs of devices bounce 1:1 messages (each arrival triggers the answer)
///   for `--seconds`; messages/s and p50/p99 from send to arrival;
/// - `offline-drain`: `--offline` messages queued for a user who is offline, then the user logs
///   in and acks each as it arrives; the time from the login to the last message and to the
///   last ack.
struct MessagesScenario: BenchScenario {
    let name = BenchScenarioName.messages
    let servers: [ServerKind] = [.imock, .python]

    static let sender = "sender"
    static let reader = "reader"
    /// Sends to the offline user under way at once.
    static let queueWindow = 100

    func run(on server: ServerKind?, _ context: ScenarioContext) async throws(BenchError) -> [ScenarioReport] {
        let kind = server ?? .imock
        let options = context.options
        var reports: [ScenarioReport] = []
        for wire in context.wires(for: kind) {
            let users = BenchWorld.users(2 * options.pairs) + [Self.sender, Self.reader]
            let world = BenchWorld(apps: [(LoginStormScenario.appKey, 4, users)], vendor: wire.vendor)
            let parts = try await context.with(kind, world: world) { server throws(BenchError) -> [BenchPart] in
                [try await pairs(server, world: world, wire: wire, context), try await drain(server, world: world, wire: wire, context)]
            }
            reports.append(
                ScenarioReport(
                    scenario: name.rawValue, server: kind.rawValue, dialect: wire.name, load: LoadSide.webSocket,
                    size: [("pairs", options.pairs), ("offline", options.offline)], parts: parts))
        }
        return reports
    }

    private func logins(_ world: BenchWorld, users: Set<String>) -> [BenchLogin] {
        let app = world.app(LoginStormScenario.appKey)
        return zip(app.users, world.tokens(of: app.key)).filter { users.contains($0.0) }.map {
            BenchLogin(appKey: app.key, user: $0, token: $1, deviceUUID: "d-\($0)", os: "ios")
        }
    }

    private func pairs(
        _ server: ServerUnderTest, world: BenchWorld, wire: any BenchWire.Type, _ context: ScenarioContext
    ) async throws(BenchError) -> BenchPart {
        let options = context.options
        let wave = await context.client.logIn(
            logins(world, users: Set(BenchWorld.users(2 * options.pairs))), endpoint: server.sessions, wire: wire,
            inFlight: options.inFlight)
        guard wave.count == 2 * options.pairs else {
            await context.client.drop(wave.devices)
            throw BenchError("messages: only \(wave.count) of \(2 * options.pairs) devices logged in; \(wave.notes)")
        }
        let duration = options.duration
        let devices = wave.devices
        let result: (samples: Samples, seconds: Double, lost: Int) = await context.client.run { loop, finish in
            PingPongPairs(loop: loop, devices: devices.value, duration: duration).run(finish)
        }
        await context.client.drop(devices)
        var notes: [String] = []
        if result.lost > 0 { notes.append("\(result.lost) pairs stopped (a message did not arrive)") }
        return BenchPart(
            name: "pairs", figures: BenchFigure.timed(result.samples, perSecond: Double(result.samples.count) / result.seconds, "messages"),
            notes: notes)
    }

    private func drain(
        _ server: ServerUnderTest, world: BenchWorld, wire: any BenchWire.Type, _ context: ScenarioContext
    ) async throws(BenchError) -> BenchPart {
        let options = context.options
        let all = logins(world, users: [Self.sender, Self.reader])
        guard let senderLogin = all.first(where: { $0.user == Self.sender }), let readerLogin = all.first(where: { $0.user == Self.reader })
        else { throw BenchError("messages: no sender or reader") }
        let wave = await context.client.logIn([senderLogin], endpoint: server.sessions, wire: wire, inFlight: 1)
        guard wave.count == 1 else { throw BenchError("messages: the sender did not log in; \(wave.notes)") }
        let count = options.offline
        let sender = wave.devices
        let queued: Double = await context.client.run { loop, finish in
            OfflineFill(device: sender.value[0], to: Self.reader, count: count).run(finish)
        }
        await context.client.drop(sender)
        let endpoint = server.sessions
        let drained: Result<DrainTimes, BenchError> = await context.client.run { loop, finish in
            OfflineDrain(loop: loop, login: readerLogin, wire: wire, endpoint: endpoint, expected: count).run(finish)
        }
        let times = try drained.get()
        return BenchPart(
            name: "offline-drain",
            figures: [
                .count("messages", count),
                BenchFigure(key: "drainMs", label: "drain ms", value: times.lastMessageMs, better: .lower),
                BenchFigure(key: "ackedMs", label: "acked ms", value: times.lastAckMs, better: .lower),
                .rate(Double(count) / (times.lastAckMs / 1000), "messages"),
                BenchFigure(key: "queuedPerSecond", label: "queued/s", value: queued, better: .higher),
            ])
    }
}

/// Pairs (device 2k, device 2k+1) bouncing one message each way at a time; the text carries
/// the send instant. Loop-confined.
private final class PingPongPairs {
    private let loop: EventLoop
    private let devices: [BenchDevice]
    private let duration: Duration
    private var samples = Samples()
    private var running = true
    private var waiting = Set<Int>()

    init(loop: EventLoop, devices: [BenchDevice], duration: Duration) {
        self.loop = loop
        self.devices = devices
        self.duration = duration
    }

    func run(_ finish: @escaping ((samples: Samples, seconds: Double, lost: Int)) -> Void) {
        let started = monotonicNanoseconds()
        for (index, device) in devices.enumerated() {
            let partner = devices[index ^ 1]
            device.onEvent = { [self] device, event in
                guard case .message(_, let text) = event else { return }
                let now = monotonicNanoseconds()
                if let sent = Int64(text.dropFirst()) { samples.add(milliseconds(from: sent, to: now)) }
                waiting.remove(index / 2)
                guard running else { return }
                send(from: device, to: partner, pair: index / 2)
            }
        }
        for pair in 0..<(devices.count / 2) { send(from: devices[2 * pair], to: devices[2 * pair + 1], pair: pair) }
        loop.scheduleTimer(after: duration) { [self] in
            running = false
            let seconds = milliseconds(from: started, to: monotonicNanoseconds()) / 1000
            // Messages still in flight are not waited for: the figure counts arrivals in the time.
            finish((samples, seconds, devices.filter(\.isClosed).count / 2))
        }
    }

    private func send(from device: BenchDevice, to partner: BenchDevice, pair: Int) {
        waiting.insert(pair)
        let text = "t\(monotonicNanoseconds())"
        device.send { $0.send(to: partner.login.user, text: text) }
    }
}

/// Sends `count` messages to an offline user, `queueWindow` under way; reports sends/s.
private final class OfflineFill {
    private let device: BenchDevice
    private let recipient: String
    private let count: Int
    private var sent = 0
    private var confirmed = 0

    init(device: BenchDevice, to recipient: String, count: Int) {
        self.device = device
        self.recipient = recipient
        self.count = count
    }

    func run(_ finish: @escaping (Double) -> Void) {
        let started = monotonicNanoseconds()
        device.onEvent = { [self] _, event in
            switch event {
            case .sent:
                confirmed += 1
                if sent < count { sendOne() }
                if confirmed == count { finish(Double(count) / (milliseconds(from: started, to: monotonicNanoseconds()) / 1000)) }
            case .refused:
                confirmed += 1
                if confirmed == count { finish(0) }
            default:
                break
            }
        }
        device.onClose = { _, _ in finish(0) }
        while sent < min(count, MessagesScenario.queueWindow) { sendOne() }
    }

    private func sendOne() {
        sent += 1
        let text = "offline-\(sent)"
        device.send { $0.send(to: recipient, text: text) }
    }
}

/// Login → last offline message, and → last ack answered.
struct DrainTimes: Sendable {
    var lastMessageMs: Double
    var lastAckMs: Double
}

/// The reader logs in, acks every offline message as it arrives, and times the drain.
/// Loop-confined.
private final class OfflineDrain {
    private let loop: EventLoop
    private let device: BenchDevice
    private let endpoint: SessionEndpoint
    private let expected: Int
    private var loginSent: Int64 = 0
    private var received = 0
    private var acked = 0
    private var lastMessage: Int64 = 0
    private var finished = false

    init(loop: EventLoop, login: BenchLogin, wire: any BenchWire.Type, endpoint: SessionEndpoint, expected: Int) {
        self.loop = loop
        self.device = BenchDevice(login: login, wire: wire)
        self.endpoint = endpoint
        self.expected = expected
    }

    func run(_ finish: @escaping (Result<DrainTimes, BenchError>) -> Void) {
        let complete = { [self] (result: Result<DrainTimes, BenchError>) in
            guard !finished else { return }
            finished = true
            device.drop()
            finish(result)
        }
        device.onLoginSent = { [self] _ in loginSent = monotonicNanoseconds() }
        device.onEvent = { [self] device, event in
            switch event {
            case .message(let id, _):
                received += 1
                if received == expected { lastMessage = monotonicNanoseconds() }
                device.send { $0.ack(id) }
            case .acked:
                acked += 1
                if acked == expected {
                    let now = monotonicNanoseconds()
                    complete(.success(DrainTimes(
                        lastMessageMs: milliseconds(from: loginSent, to: lastMessage), lastAckMs: milliseconds(from: loginSent, to: now))))
                }
            case .refused(let code):
                complete(.failure(BenchError("offline drain: an ack was refused with \(code)")))
            default:
                break
            }
        }
        device.onClose = { _, code in complete(.failure(BenchError("offline drain: closed with \(code)"))) }
        loop.scheduleTimer(after: .seconds(60)) { [self] in
            complete(.failure(BenchError("offline drain: \(received) of \(expected) messages, \(acked) acks within 60 s")))
        }
        device.connectAndLogIn(loop: loop, endpoint: endpoint) { result in
            if case .failure(let error) = result { complete(.failure(error)) }
        }
    }
}
