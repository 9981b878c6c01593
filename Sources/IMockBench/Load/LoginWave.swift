import IMockNet

/// Connects and logs in many devices, `inFlight` at a time: the building block of every
/// session scenario. Loop-confined to the client loop.
final class LoginWave {
    /// What a wave did.
    struct Outcome {
        /// The devices logged in, in the order of their logins (failed ones left out).
        var devices: [BenchDevice]
        /// Connect start → login accepted, per device, in milliseconds.
        var samples = Samples()
        /// From the first connect to the last login (or the deadline).
        var seconds = 0.0
        /// Devices that did not log in (refused, dropped, or still under way at the deadline).
        var failed = 0
        /// The first failure, for the notes.
        var firstFailure: String?

        /// Logins per second.
        var perSecond: Double { seconds > 0 ? Double(devices.count) / seconds : 0 }

        /// The rate, p50 and p99 of the wave, plus how many logged in.
        func figures(_ what: String) -> [BenchFigure] {
            BenchFigure.timed(samples, perSecond: perSecond, what) + [.count("loggedIn", devices.count)]
        }

        /// A note when some devices did not log in.
        var notes: [String] {
            guard failed > 0 else { return [] }
            return ["\(failed) did not log in" + (firstFailure.map { ", first: \($0)" } ?? "")]
        }
    }

    private let loop: EventLoop
    private let endpoint: SessionEndpoint
    private let wire: any BenchWire.Type
    private let logins: [BenchLogin]
    private let inFlight: Int
    private let timeout: Duration
    private var outcome = Outcome(devices: [])
    private var slots: [BenchDevice?]
    private var finished = false

    init(
        loop: EventLoop, endpoint: SessionEndpoint, wire: any BenchWire.Type, logins: [BenchLogin], inFlight: Int,
        timeout: Duration
    ) {
        self.loop = loop
        self.endpoint = endpoint
        self.wire = wire
        self.logins = logins
        self.inFlight = inFlight
        self.timeout = timeout
        self.slots = Array(repeating: nil, count: logins.count)
    }

    /// Runs the wave; `completion` gets the outcome once every login ended or at the deadline.
    func run(completion: @escaping (Outcome) -> Void) {
        let started = monotonicNanoseconds()
        var deadline: LoopTimerID?
        let finish = { [self] in
            guard !finished else { return }
            finished = true
            if let deadline { loop.cancelTimer(deadline) }
            outcome.seconds = milliseconds(from: started, to: monotonicNanoseconds()) / 1000
            outcome.devices = slots.compactMap { $0 }
            outcome.failed = logins.count - outcome.devices.count
            completion(outcome)
        }
        deadline = loop.scheduleTimer(after: timeout) { [self] in
            if outcome.firstFailure == nil { outcome.firstFailure = "not logged in within \(timeout)" }
            finish()
        }
        let throttle = Throttle(total: logins.count, window: inFlight) { [self] index, done in
            guard !finished else { return }
            let device = BenchDevice(login: logins[index], wire: wire)
            let begun = monotonicNanoseconds()
            device.connectAndLogIn(loop: loop, endpoint: endpoint) { [self] result in
                switch result {
                case .success:
                    if finished {
                        device.drop()
                    } else {
                        outcome.samples.add(milliseconds(from: begun, to: monotonicNanoseconds()))
                        slots[index] = device
                    }
                case .failure(let error):
                    if outcome.firstFailure == nil { outcome.firstFailure = error.description }
                    device.drop()
                }
                done()
            }
        }
        throttle.start(completion: finish)
    }
}

/// A set of loop-confined devices carried between the phases of a scenario.
typealias HeldDevices = LoopBound<[BenchDevice]>

extension ClientLoop {
    /// Runs a login wave and hands back the devices held for the next phase.
    func logIn(
        _ logins: [BenchLogin], endpoint: SessionEndpoint, wire: any BenchWire.Type, inFlight: Int,
        timeout: Duration = .seconds(60)
    ) async -> (devices: HeldDevices, count: Int, figures: [BenchFigure], notes: [String]) {
        let loginsToRun = logins
        benchTrace("login wave of \(logins.count)")
        defer { benchTrace("login wave done") }
        return await run { loop, finish in
            let wave = LoginWave(
                loop: loop, endpoint: endpoint, wire: wire, logins: loginsToRun, inFlight: inFlight, timeout: timeout)
            wave.run { outcome in
                finish((HeldDevices(outcome.devices, on: loop), outcome.devices.count, outcome.figures("logins"), outcome.notes))
            }
        }
    }

    /// How many of the held devices' TLS handshakes resumed a session.
    func resumedHandshakes(_ held: HeldDevices) async -> Int {
        await run { _, finish in
            finish(held.value.filter { $0.channel?.connection.tlsSessionResumed == true }.count)
        }
    }

    /// Drops every device and waits until each has seen its connection close.
    func drop(_ held: HeldDevices) async {
        benchTrace("dropping")
        defer { benchTrace("dropped") }
        let _: Bool = await run { loop, finish in
            let devices = held.value.filter { !$0.isClosed }
            held.value = []
            guard !devices.isEmpty else {
                finish(true)
                return
            }
            var open = devices.count
            for device in devices {
                device.onClose = { _, _ in
                    open -= 1
                    if open == 0 { finish(true) }
                }
                device.drop()
            }
        }
    }
}
