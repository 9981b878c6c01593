import IMockCommon
import IMockCore
import IMockNet

/// Why a soak could not run (the server did not start or refused the set-up).
public struct SoakFailure: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// Runs the load of one soak on one event loop: set-up through the control API, a tick that
/// picks actions at random (seeded), the samples, then the drain and the report. Every
/// connection, call and timer is on `loop`; nothing here is touched from another thread.
final class SoakDriver {
    enum Phase {
        case settingUp
        case running
        /// The load waits while the server is killed and restarted (``crashAndRestart()``).
        case crashing
        case draining
        case finished
    }

    let configuration: SoakConfiguration
    let plan: SoakPlan
    let loop: EventLoop
    let http: SoakHTTP
    let socketAddress: SocketAddress
    let socketHost: String
    /// Samples the server's memory and descriptors; nil when that is not possible.
    var probe: ProcessProbe?
    /// The server child a crash-restart soak kills and restarts, and when (ms of load).
    let serverProcess: SoakServerProcess?
    var crashesAtMs: [Int64] = []
    var random: SplitMix64
    var ledger = SoakLedger()
    var report = SoakReport()
    var phase = Phase.settingUp

    /// The connection of each device slot, when it has one.
    var slotConnections: [SoakConnection?]
    /// Every open connection by serial (devices' and the drain's).
    var connections: [Int: SoakConnection] = [:]
    /// Each user's current token (shared by the user's devices), nil until fetched or once refused.
    var userTokens: [String?]
    var fetchingTokens: Set<Int> = []
    var appTokens: [String] = []
    var nextSerial = 1
    var nextSeq = 0
    /// Destructive faults (drop, reset, blackhole, dropFrames) active per user.
    var destructiveFaults: [Int: Int] = [:]
    var faultsActive = 0
    var clockAdvancing = false
    /// Ended lossy connections the server may still hold: user and resource, and how many
    /// session lists still showed them.
    var unsettled: [Int: (user: Int, resource: String, sightings: Int)] = [:]
    var reaping: Set<Int> = []
    /// The connection stalled now (one at a time).
    var stalledSerial: Int?
    /// Users sent a flood: their queues may hold more than the output cap.
    var floodedUsers: Set<Int> = []

    private var loadStartMs: Int64 = 0
    var drainStartMs: Int64 = 0
    private var timers: [LoopTimerID] = []
    private let started = MonotonicInstant.now()
    private var lastProgressMs: Int64 = 0
    private let progress: ((String) -> Void)?
    private var completion: ((Result<SoakReport, SoakFailure>) -> Void)?

    /// The longest a request may wait for its reply before the device gives up on the
    /// connection (faults hold frames for at most a couple of seconds).
    static let replyTimeoutMs: Int64 = 10_000
    static let maximumHTTPInFlight = 8

    init(
        configuration: SoakConfiguration, plan: SoakPlan, loop: EventLoop, http: SoakHTTP, socketAddress: SocketAddress,
        socketHost: String, probe: ProcessProbe?, memoryUnavailable: String?, target: String,
        serverProcess: SoakServerProcess? = nil, progress: ((String) -> Void)?
    ) {
        self.configuration = configuration
        self.plan = plan
        self.loop = loop
        self.http = http
        self.socketAddress = socketAddress
        self.socketHost = socketHost
        self.probe = probe
        self.serverProcess = serverProcess
        self.progress = progress
        if case .crashRestart(_, let crashes) = configuration.target, crashes > 0 {
            let loadMs = Int64(configuration.duration / .milliseconds(1))
            crashesAtMs = (1...crashes).map { loadMs * Int64($0) / Int64(crashes + 1) }
        }
        random = SplitMix64(seed: SplitMix64.derive(configuration.seed, 2))
        slotConnections = Array(repeating: nil, count: plan.slots.count)
        userTokens = Array(repeating: nil, count: plan.users.count)
        report.seed = configuration.seed
        report.target = target
        report.devices = plan.slots.count
        report.users = plan.users.count
        report.apps = plan.apps.map { ($0.name, $0.policy) }
        report.memoryBoundBytes = configuration.maximumMemoryGrowthBytes
        report.memoryUnavailable = memoryUnavailable
    }

    /// Real time since the driver was made, ms.
    var nowMs: Int64 { (MonotonicInstant.now().nanoseconds - started.nanoseconds) / 1_000_000 }

    /// Time since the load started, ms.
    var loadMs: Int64 { nowMs - loadStartMs }

    /// Runs everything and calls `completion` once, on the loop.
    func start(completion: @escaping (Result<SoakReport, SoakFailure>) -> Void) {
        self.completion = completion
        http.control("POST", "seed", body: plan.seedDocument) { [self] answer in
            guard answer.status == 200 else {
                return fail("the control API refused the soak's apps: \(Self.describe(answer))")
            }
            fetchAppTokens(0)
        }
    }

    private func fetchAppTokens(_ index: Int) {
        guard index < plan.apps.count else { return beginLoad() }
        let body = #"{"grant_type":"client_credentials","client_id":"\#(SoakPlan.clientID)","client_secret":"\#(plan.clientSecret)","ttl":0}"#
        http.call("POST", "/\(plan.apps[index].path)/token", bearer: nil, body: body) { [self] answer in
            guard answer.status == 200, let token = answer.body["access_token"]?.stringValue else {
                return fail("no app token for \(plan.apps[index].key): \(Self.describe(answer))")
            }
            appTokens.append(token)
            fetchAppTokens(index + 1)
        }
    }

    private func beginLoad() {
        phase = .running
        loadStartMs = nowMs
        report.filesAtStart = probe?.openDescriptors()
        sample()
        repeatEvery(.milliseconds(10)) { [self] in tick() }
        repeatEvery(configuration.sampleInterval) { [self] in sample() }
        repeatEvery(.milliseconds(300)) { [self] in reap() }
        repeatEvery(.seconds(1)) { [self] in watchdog() }
    }

    /// Runs `body` every `interval` until the driver finishes.
    func repeatEvery(_ interval: Duration, _ body: @escaping () -> Void) {
        let slot = timers.count
        timers.append(LoopTimerID(rawValue: 0))
        func arm() {
            timers[slot] = loop.scheduleTimer(after: interval) { [weak self] in
                guard let self, self.phase != .finished else { return }
                body()
                if self.phase != .finished { arm() }
            }
        }
        arm()
    }

    private func tick() {
        guard phase == .running else { return }
        if loadMs >= Int64(configuration.duration / .milliseconds(1)) {
            report.loadSeconds = Double(loadMs) / 1000
            return beginDrain()
        }
        if let crashAtMs = crashesAtMs.first, loadMs >= crashAtMs {
            crashesAtMs.removeFirst()
            return crashAndRestart()
        }
        for _ in 0..<2 { performRandomAction() }
        if let progress, nowMs - lastProgressMs >= 10_000 {
            lastProgressMs = nowMs
            progress(progressLine)
        }
    }

    private var progressLine: String {
        let rss = report.samples.last.map { SoakReport.mib($0.residentBytes) + " MiB" } ?? "?"
        return "soak: \(loadMs / 1000) s: \(report.loginsAccepted) logins, \(ledger.figures.sent) messages, "
            + "\(report.kicked.values.reduce(0, +)) kicks, \(report.clockAdvances) clock steps, RSS \(rss)"
    }

    // MARK: Samples

    func sample() {
        guard let probe, let bytes = probe.residentBytes() else { return }
        let files = probe.openDescriptors()
        report.samples.append(SoakReport.Sample(atMs: loadMs, residentBytes: bytes, openFiles: files))
        if let files { report.filesMaximum = max(report.filesMaximum ?? 0, files) }
    }

    /// The memory figures: the sample at the end of the warm-up (a fifth of the load, at least
    /// two seconds) and the highest in the load's last fifth.
    func computeMemory() {
        let loadEndMs = Int64(report.loadSeconds * 1000)
        let load = report.samples.filter { $0.atMs <= loadEndMs }
        guard let first = load.first, let last = load.last else { return }
        let warmup = max(2000, loadEndMs / 5)
        report.baselineBytes = (load.first { $0.atMs >= warmup } ?? first).residentBytes
        report.finalBytes = load.filter { $0.atMs >= loadEndMs - loadEndMs / 5 }.map(\.residentBytes).max() ?? last.residentBytes
    }

    // MARK: Bookkeeping

    /// Something that must not happen.
    func anomaly(_ what: String) {
        report.anomalyCount += 1
        if report.anomalies.count < 20 { report.anomalies.append("\(loadMs) ms: \(what)") }
    }

    /// Marks a connection lossy, in the ledger too.
    func markLossy(_ connection: SoakConnection) {
        connection.lossy = true
        ledger.connectionLossy(connection.serial)
    }

    func user(of connection: SoakConnection) -> Int {
        connection.slot < plan.slots.count ? plan.slots[connection.slot].user : connection.slot - plan.slots.count
    }

    func fail(_ reason: String) {
        finishTimers()
        phase = .finished
        completion?(.failure(SoakFailure(reason)))
        completion = nil
    }

    func finishTimers() {
        for timer in timers { loop.cancelTimer(timer) }
        timers = []
    }

    /// The end: the ledger's verdict, memory and descriptors, the report.
    func complete() {
        report.drainSeconds = Double(nowMs - drainStartMs) / 1000
        report.messages = ledger.finish()
        report.httpCalls = http.calls
        computeMemory()
        finishTimers()
        phase = .finished
        completion?(.success(report))
        completion = nil
    }

    static func describe(_ answer: SoakHTTP.Answer) -> String {
        guard let status = answer.status else { return "no answer" }
        return "HTTP \(status) \(answer.body["error_description"]?.stringValue ?? answer.body.encodedString)"
    }
}
