#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Dispatch
import IMockCommon
import IMockClient
import IMockCore
import Synchronization

/// An adapter in another process speaking JSON lines on stdin/stdout (the contract in
/// `docs/FIXTURES.md`): commands in, results and callback records out, after a version handshake.
final class ProcessAdapter: DeviceAdapter {
    /// The contract version this harness speaks.
    static let protocolVersion: Int64 = 1

    let name: String
    /// The name it gives itself in its hello (`easemob-web`), whatever `--adapter` calls it.
    let ownName: String?
    let clock: AdapterClock
    let supportedCommands: Set<String>?
    let supportedProfiles: Set<String>?
    private let process: SpawnedProcess
    /// The fixture it serves now: where its callbacks go and the virtual time they get.
    private let binding: Mutex<(observations: Observations, now: @Sendable () -> Int64)>
    private let state = Mutex(State())

    private struct State {
        var nextID: Int64 = 0
        var waiting: [Int64: CheckedContinuation<JSONValue, Never>] = [:]
        var hello: CheckedContinuation<JSONValue?, Never>?
        var ended = false
        var errors: [String] = []
    }

    private init(
        name: String, hello: JSONValue, process: SpawnedProcess, observations: Observations,
        virtualNow: @escaping @Sendable () -> Int64
    ) {
        self.name = name
        self.ownName = hello["name"]?.stringValue
        self.clock = hello["clock"]?.stringValue == "virtual" ? .virtual : .realTime
        self.supportedCommands = hello["commands"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) }
        self.supportedProfiles = hello["profiles"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) }
        self.process = process
        self.binding = Mutex((observations, virtualNow))
    }

    /// Serves the next fixture (after ``reset()``): its callbacks go to `observations`.
    func bind(observations: Observations, clock: @escaping @Sendable () -> Int64) {
        binding.withLock { $0 = (observations, clock) }
    }

    /// Starts `command` (argv), performs the handshake and returns the adapter. `helloLimit`
    /// (``RunSettings/helloTimeout``) bounds only a silent adapter: one that ends, or writes
    /// anything but a hello, fails at once; it is paid once a run (``AdapterPool``).
    static func start(
        name: String, command: [String], helloLimit: Duration, observations: Observations, clock: @escaping @Sendable () -> Int64
    ) async throws(ScenarioFailure) -> ProcessAdapter {
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess.spawn(command[0], Array(command.dropFirst()), stdin: .pipe, stdout: .pipe, stderr: .inherit)
        } catch {
            throw .infrastructure("adapter \(name): \(error)")
        }
        let box = AdapterBox()
        let reader = LineReader(fd: process.stdout!, onEnd: { if let adapter = box.adapter { adapter.ended() } else { box.endedBeforeHello() } }) { line in
            if let adapter = box.adapter { adapter.received(line) } else { box.early(line) }
        }
        reader.start()
        let helloLine = "{\"type\":\"hello\",\"protocol\":\(protocolVersion),\"harness\":\"imock\"}\n"
        process.write(helloLine)
        let hello: JSONValue
        switch await box.waitForHello(limit: helloLimit) {
        case .hello(let answer): hello = answer
        case .ended:
            process.kill()
            throw .infrastructure("adapter \(name): it ended before answering the hello (is the command right? its stderr says why)")
        case .timedOut:
            process.kill()
            throw .infrastructure("adapter \(name): no hello answer within \(helloLimit) (is it speaking the JSON-lines contract?)")
        case .wrong(let line):
            process.kill()
            throw .infrastructure(
                "adapter \(name): answered the hello with \(line.prefix(200)) instead of its hello (is it speaking the JSON-lines contract?)")
        }
        guard hello["protocol"]?.intValue == protocolVersion else {
            process.kill()
            throw .infrastructure("adapter \(name) speaks protocol \(hello["protocol"]?.encodedString ?? "?"), this harness \(protocolVersion)")
        }
        let adapter = ProcessAdapter(
            name: name, hello: hello, process: process, observations: observations,
            virtualNow: clock)
        box.attach(adapter)
        return adapter
    }

    /// Handles one line from the adapter.
    func received(_ line: String) {
        guard let message = try? JSONValue.parse(line) else {
            state.withLock { $0.errors.append("not JSON: \(line.prefix(200))") }
            return
        }
        switch message["type"]?.stringValue {
        case "result":
            guard let id = message["id"]?.intValue else { return }
            let waiter = state.withLock { $0.waiting.removeValue(forKey: id) }
            waiter?.resume(returning: message)
        case "callback":
            let arguments = message["args"]?.objectValue?.map { CallbackArgument($0.key, $0.value) } ?? []
            let (observations, now) = binding.withLock { $0 }
            observations.record(
                device: message["device"]?.stringValue ?? "?", name: message["name"]?.stringValue ?? "?",
                arguments: arguments, timeMs: message["timeMs"]?.intValue ?? now(), frames: message["frames"]?.intValue)
        default:
            return
        }
    }

    /// The process ended: every waiting command fails.
    func ended() {
        let waiters = state.withLock { state -> [CheckedContinuation<JSONValue, Never>] in
            state.ended = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in waiters { waiter.resume(returning: ["type": "result", "refused": "the adapter process ended"]) }
    }

    private func send(_ members: [(key: String, value: JSONValue)]) async -> JSONValue {
        await withCheckedContinuation { continuation in
            let id: Int64? = state.withLock { state in
                guard !state.ended else { return nil }
                state.nextID += 1
                state.waiting[state.nextID] = continuation
                return state.nextID
            }
            guard let id else { return continuation.resume(returning: ["refused": "the adapter process ended"]) }
            let line = JSONValue.object([("type", "command"), ("id", .int(id))] + members).encodedString + "\n"
            if !process.write(line) { ended() }
        }
    }

    func execute(device: String, _ command: AdapterCommand) async -> AdapterReply {
        var members: [(key: String, value: JSONValue)] = [("device", .string(device)), ("command", .string(command.name))]
        switch command {
        case .initialize(let setup): members.append(("setup", Self.json(setup)))
        case .login(let user, let token, _): members += [("user", .string(user)), ("token", .string(token))]
        case .logout(let unbind): members.append(("unbind", .bool(unbind)))
        case .renewToken(let token): members.append(("token", .string(token)))
        case .send(let to, let text): members += [("to", .string(to)), ("text", .string(text))]
        case .ack(let messageId): members.append(("messageId", .string(messageId)))
        case .queryDevices(let user, let token): members += [("user", .string(user)), ("token", .string(token))]
        case .addDelegate, .removeDelegate, .restart, .state, .shutdown: break
        }
        let answer = await send(members)
        if let refused = answer["refused"]?.stringValue { return .refused(refused) }
        return .result(answer["result"] ?? ["error": nil])
    }

    func settle(skipping: Set<String>, guard waitGuard: WaitGuard) async throws(ScenarioFailure) {
        guard supportedCommands?.contains("settle") ?? true else { return }
        let skipped = JSONValue.array(skipping.sorted().map(JSONValue.string))
        let answer = try await waitGuard.run("adapter \(name): settle") { [self] in
            await send([("command", "settle"), ("skip", skipped)])
        }
        if let refused = answer["refused"]?.stringValue { throw .infrastructure("adapter \(name) could not settle: \(refused)") }
    }

    func pendingTimers() async -> [PendingTimer] {
        guard clock == .virtual else { return [] }
        let answer = await send([("command", "timers")])
        return (answer["result"]?["timers"]?.arrayValue ?? []).compactMap { timer in
            guard let device = timer["device"]?.stringValue, let name = timer["name"]?.stringValue,
                let due = timer["dueMs"]?.intValue
            else { return nil }
            return PendingTimer(device: device, name: name, dueMs: due)
        }
    }

    func fire(_ timer: PendingTimer) async {
        guard clock == .virtual else { return }
        _ = await send([
            ("command", "fire"), ("device", .string(timer.device)), ("timer", .string(timer.name)), ("nowMs", .int(timer.dueMs)),
        ])
    }

    /// The ordering barrier: `frames` lists, per device of this adapter, the server's frames to
    /// it (journal events) with their server sequence, in server order. Answers, once each has
    /// reached its device and every callback it caused has been written, the device's own frame
    /// number of each by sequence (`[:]` when the adapter cannot).
    func barrier(_ frames: [String: [(sequence: Int64, event: JSONValue)]]) async -> [Int64: Int64] {
        guard supportedCommands?.contains("barrier") == true, !frames.isEmpty else { return [:] }
        let devices = JSONValue.object(frames.sorted { $0.key < $1.key }.map { device, list in
            (device, .array(list.map { ["sequence": .int($0.sequence), "event": $0.event] }))
        })
        let answer = try? await WaitGuard(limit: .seconds(10)).run("adapter \(name): barrier") { [self] in
            await send([("command", "barrier"), ("devices", devices)])
        }
        var numbers: [Int64: Int64] = [:]
        for (sequence, number) in answer?["result"]?["frames"]?.objectValue ?? [] {
            if let sequence = Int64(sequence), let number = number.intValue { numbers[sequence] = number }
        }
        return numbers
    }

    /// Readies the process for the next fixture: `reset` drops every device. False when it cannot
    /// be reused (no `reset` among its commands, refused, ended).
    func reset() async -> Bool {
        guard supportedCommands?.contains("reset") ?? true, process.isRunning else { return false }
        let answer = try? await WaitGuard(limit: .seconds(2)).run("adapter \(name): reset") { [self] in await send([("command", "reset")]) }
        return answer?["result"] != nil && answer?["refused"] == nil && process.isRunning
    }

    func close() async {
        _ = try? await WaitGuard(limit: .seconds(2)).run("adapter \(name): shutdown") { [self] in await send([("command", "shutdown")]) }
        process.closeStdin()
        // Bounded: a process that does not end within 2 s of its stdin closing is killed.
        for _ in 0..<200 where process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning { process.kill() }
    }

    /// `setup` of the `init` command.
    static func json(_ setup: DeviceSetup) -> JSONValue {
        let device = setup.device
        var description: [(key: String, value: JSONValue)] = []
        switch device.description.platform {
        case .easemob(.custom(let type)): description.append(("customOSType", .int(Int64(type))))
        case .easemob(let platform): description.append(("os", .string(platform.resourcePrefix)))
        case .openIM(let platform): description.append(("platformId", .int(Int64(platform.rawValue))))
        }
        description += [
            ("name", .string(device.description.name)), ("uuid", .string(device.description.uuid)),
            ("extension", .string(device.description.extensionInfo)),
        ]
        if let resource = device.description.resource { description.append(("resource", .string(resource))) }
        return [
            "appKey": .string(setup.appKey), "serverURL": .string(setup.serverURL), "device": .object(description),
            "profile": .string(device.profile.rawValue), "syncTypes": .array(device.syncTypes.map { .string($0.rawValue) }),
            "randomSeed": .int(Int64(bitPattern: setup.randomSeed)),
            // A recorded session's waits over the profile's back-off (docs/RECORD.md): the SDK keeps its own.
            "reconnect": device.reconnect.flatMap { $0.waits.isEmpty || $0.steps != device.profile.rules.reconnect.steps ? $0 : nil }.map { policy in
                ["minMs": .int(policy.steps.first?.minMs ?? 0), "maxMs": .int(policy.steps.first?.maxMs ?? 0),
                 "maxAttempts": policy.maxAttempts.map { .int(Int64($0)) } ?? .null]
            } ?? .null,
            "loginTimeoutMs": device.loginTimeoutMs.map { .int($0) } ?? .null,
            "keepAliveMs": device.keepAliveMs.map { .int($0) } ?? .null,
        ]
    }
}

/// How the handshake ended.
private enum HelloOutcome: Sendable {
    case hello(JSONValue)
    /// The adapter's output ended first.
    case ended
    case timedOut
    /// A line that is not a named hello came first.
    case wrong(String)
}

/// Holds the adapter once the handshake is done; before that, takes the hello line.
private final class AdapterBox: Sendable {
    private let lock = Mutex<(adapter: ProcessAdapter?, outcome: HelloOutcome?, waiter: CheckedContinuation<HelloOutcome, Never>?)>(
        (nil, nil, nil))

    var adapter: ProcessAdapter? { lock.withLock { $0.adapter } }

    func attach(_ adapter: ProcessAdapter) { lock.withLock { $0.adapter = adapter } }

    /// A line before the handshake ended: the hello, or anything else — a stray print, an echo
    /// of the harness's own hello (it names the `harness`) — which ends the handshake as wrong.
    func early(_ line: String) {
        let message = try? JSONValue.parse(line)
        let isHello = message?["type"]?.stringValue == "hello" && message?["harness"] == nil
        settle(isHello ? .hello(message!) : .wrong(line))
    }

    /// The adapter's output ended before it was attached: a hello can no longer come.
    func endedBeforeHello() { settle(.ended) }

    /// The first outcome counts.
    private func settle(_ outcome: HelloOutcome) {
        let waiter = lock.withLock { state -> CheckedContinuation<HelloOutcome, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }

    /// How the handshake ended: a hello, a wrong line, the output's end, or nothing within `limit`.
    func waitForHello(limit: Duration) async -> HelloOutcome {
        let timer = Task { [self] in
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { settle(.timedOut) }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let known = lock.withLock { state -> HelloOutcome? in
                if state.outcome == nil { state.waiter = continuation }
                return state.outcome
            }
            if let known { continuation.resume(returning: known) }
        }
    }
}

/// Reads lines from a descriptor on a thread of its own until EOF.
private final class LineReader: Sendable {
    let fd: Int32
    let onEnd: @Sendable () -> Void
    let onLine: @Sendable (String) -> Void

    init(fd: Int32, onEnd: @escaping @Sendable () -> Void, onLine: @escaping @Sendable (String) -> Void) {
        self.fd = fd
        self.onEnd = onEnd
        self.onLine = onLine
    }

    func start() {
        // A thread of Dispatch's, not of the cooperative pool: it blocks in read() for the adapter's life.
        DispatchQueue.global().async { [self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: 0x0A) {
                    onLine(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            onEnd()
        }
    }
}
