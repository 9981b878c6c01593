import IMockNet

/// `fleet`: N devices log in and stay for `--hold` seconds, each pinging once a second; how
/// many stayed with every ping answered, and the server's resident memory per session
/// (growth over the idle server, divided by the sessions).
struct FleetScenario: BenchScenario {
    let name = BenchScenarioName.fleet
    let servers: [ServerKind] = [.imock, .python]

    static let pingInterval: Duration = .seconds(1)

    func run(on server: ServerKind?, _ context: ScenarioContext) async throws(BenchError) -> [ScenarioReport] {
        let kind = server ?? .imock
        let options = context.options
        let wire = context.easemobWire(for: kind)
        let world = BenchWorld(apps: [(LoginStormScenario.appKey, 4, BenchWorld.users(options.fleet))])
        let part = try await context.with(kind, world: world) { server throws(BenchError) in
            let idle = server.residentBytes ?? 0
            let logins = zip(world.app(LoginStormScenario.appKey).users, world.tokens(of: LoginStormScenario.appKey)).map {
                BenchLogin(appKey: LoginStormScenario.appKey, user: $0, token: $1, deviceUUID: "d-\($0)", os: "android")
            }
            let wave = await context.client.logIn(logins, endpoint: server.sessions, wire: wire, inFlight: options.inFlight)
            let loggedIn = server.residentBytes ?? 0
            let devices = wave.devices
            let hold = options.hold
            let held: HoldResult = await context.client.run { loop, finish in
                PingHold(loop: loop, devices: devices.value, hold: hold).run(finish)
            }
            let held_rss = server.residentBytes ?? 0
            await context.client.drop(devices)
            let sessions = max(1, held.sessions)
            let figures: [BenchFigure] = [
                .count("devices", options.fleet),
                .count("loggedIn", held.sessions),
                .count("stayed", held.stayed),
                .count("pings", held.pings),
                .count("pongs", held.pongs),
                BenchFigure(
                    key: "rssPerSessionBytes", label: "RSS/session B", value: Double(max(loggedIn, held_rss) - idle) / Double(sessions),
                    better: .lower),
                BenchFigure(key: "rssIdleBytes", label: "idle RSS B", value: Double(idle), better: nil),
                BenchFigure(key: "rssBytes", label: "RSS B", value: Double(max(loggedIn, held_rss)), better: nil),
            ]
            var notes = wave.notes
            if held.stayed < held.sessions { notes.append("\(held.sessions - held.stayed) closed while held") }
            if held.pongs < held.pings { notes.append("\(held.pings - held.pongs) pings unanswered") }
            return BenchPart(name: "hold", figures: figures, notes: notes)
        }
        return [
            ScenarioReport(
                scenario: name.rawValue, server: kind.rawValue, dialect: wire.name, load: LoadSide.webSocket,
                size: [("devices", options.fleet), ("holdSeconds", Int(options.hold.milliseconds / 1000))], parts: [part])
        ]
    }
}

/// What holding the fleet saw.
struct HoldResult: Sendable {
    var sessions: Int
    var stayed: Int
    var pings: Int
    var pongs: Int
}

/// Pings every device once per interval (spread evenly over it) for the hold, then waits up to
/// two seconds for the last pongs. Loop-confined.
private final class PingHold {
    private let loop: EventLoop
    private let devices: [BenchDevice]
    private let hold: Duration
    private var pings = 0
    private var pongs = 0
    private var next = 0
    private var holding = true
    private var ticker: LoopTimerID?
    /// Ticks per ping interval; each tick pings a slice of the devices.
    private static let ticks = 20

    init(loop: EventLoop, devices: [BenchDevice], hold: Duration) {
        self.loop = loop
        self.devices = devices
        self.hold = hold
    }

    func run(_ finish: @escaping (HoldResult) -> Void) {
        for device in devices {
            device.onEvent = { [self] _, event in
                if event == .pong { pongs += 1 }
            }
        }
        tick()
        loop.scheduleTimer(after: hold) { [self] in
            holding = false
            if let ticker { loop.cancelTimer(ticker) }
            let deadline = monotonicNanoseconds() + 2_000_000_000
            waitForPongs(until: deadline, finish)
        }
    }

    private func tick() {
        guard holding, !devices.isEmpty else { return }
        let slice = max(1, (devices.count + Self.ticks - 1) / Self.ticks)
        for _ in 0..<min(slice, devices.count) {
            let device = devices[next % devices.count]
            next += 1
            guard !device.isClosed else { continue }
            pings += 1
            device.send { $0.ping() }
        }
        ticker = loop.scheduleTimer(after: FleetScenario.pingInterval / Self.ticks) { [self] in tick() }
    }

    private func waitForPongs(until deadline: Int64, _ finish: @escaping (HoldResult) -> Void) {
        if pongs >= pings || monotonicNanoseconds() >= deadline {
            finish(HoldResult(sessions: devices.count, stayed: devices.filter { !$0.isClosed }.count, pings: pings, pongs: pongs))
            return
        }
        loop.scheduleTimer(after: .milliseconds(20)) { [self] in waitForPongs(until: deadline, finish) }
    }
}
