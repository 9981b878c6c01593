import Dispatch
import IMockClient
import IMockCommon
import IMockCore
import IMockNet
import Synchronization

/// The built-in adapter: each device is an ``IMClient`` on the scenario's event loop with its
/// timers on the link's `Timeline` (in process, the server's own), which ``ScenarioTime``
/// moves; its delegate feeds ``Observations``.
final class ReferenceAdapter: DeviceAdapter {
    let name = "reference"
    let clock = AdapterClock.virtual
    let supportedCommands: Set<String>? = nil
    let supportedProfiles: Set<String>? = nil

    private let loop: EventLoop
    private let endpoint: ServerEndpoint
    /// The wire dialect the clients speak.
    private let transport: ClientTransport
    private let timeline: Timeline
    private let plantedBug: PlantedBug?
    private let observations: Observations
    private let slots = Mutex<[String: Slot]>([:])

    /// One device: its client (nil before `init`), its delegate, the queue callbacks run on.
    private struct Slot: Sendable {
        var setup: DeviceSetup
        var client: IMClient?
        let observer: DelegateObserver
        let queue: DispatchQueue
        var delegateAdded = false
    }

    init(
        loop: EventLoop, endpoint: ServerEndpoint, timeline: Timeline, observations: Observations,
        transport: ClientTransport = .imockJSON, plantedBug: PlantedBug? = nil
    ) {
        self.plantedBug = plantedBug
        self.loop = loop
        self.endpoint = endpoint
        self.timeline = timeline
        self.observations = observations
        self.transport = transport
    }

    func execute(device: String, _ command: AdapterCommand) async -> AdapterReply {
        if case .initialize(let setup) = command { return initialize(device, setup) }
        guard let slot = slots.withLock({ $0[device] }) else { return .refused("device \(device) has no init step before") }
        guard let client = slot.client else { return .refused("device \(device) was shut down") }
        switch command {
        case .initialize: return .refused("unreachable")
        case .addDelegate:
            client.addDelegate(slot.observer, queue: slot.queue)
            slots.withLock { $0[device]?.delegateAdded = true }
            return .result(Self.success)
        case .removeDelegate:
            client.removeDelegate(slot.observer)
            slots.withLock { $0[device]?.delegateAdded = false }
            return .result(Self.success)
        case .login(let user, let token, let offline):
            return .result(Self.outcome(await withCheckedContinuation { done in
                client.login(userId: user, token: token, offline: offline) { done.resume(returning: $0) }
            }))
        case .logout(let unbind):
            return .result(Self.outcome(await withCheckedContinuation { done in
                client.logout(unbindDeviceToken: unbind) { done.resume(returning: $0) }
            }))
        case .renewToken(let token):
            return .result(Self.outcome(await withCheckedContinuation { done in
                client.renewToken(token) { done.resume(returning: $0) }
            }))
        case .send(let to, let text):
            do {
                let messageId = try await client.send(to: to, text: text)
                return .result(["error": nil, "messageId": .string(messageId)])
            } catch {
                return .result(Self.outcome(error))
            }
        case .ack:
            return .refused("the reference client acks stored offline messages by itself (C10); ack is for adapters with manual acks")
        case .queryDevices(let user, let token):
            do {
                let devices = try await client.getLoggedInDevicesFromServer(userId: user, token: token)
                return .result(["error": nil, "resources": .array(devices.map { .string($0.resource) })])
            } catch {
                return .result(Self.outcome(error))
            }
        case .restart:
            let remembered = client.lastOnlineUser
            await client.shutdown()
            var setup = slot.setup
            setup.randomSeed &+= 1
            let reply = initialize(device, setup, lastOnlineUser: remembered)
            if slot.delegateAdded, case .result = reply { return await execute(device: device, .addDelegate) }
            return reply
        case .state:
            return .result([
                "loggedIn": .bool(client.isLoggedIn), "connected": .bool(client.isConnected),
                "currentUser": client.currentUsername.map { .string($0) } ?? .null,
                "loginStatus": .string(client.loginStatus.rawValue),
            ])
        case .shutdown:
            await client.shutdown()
            slots.withLock { $0[device]?.client = nil }
            return .result(Self.success)
        }
    }

    /// Login, logout and renewal go through the client's completion handlers: the call is
    /// submitted to the client before this returns.
    func begin(device: String, _ command: AdapterCommand) -> PendingReply {
        let pending = PendingReply()
        guard let client = slots.withLock({ $0[device]?.client }) else {
            Task { pending.complete(await execute(device: device, command)) }
            return pending
        }
        let finish: @Sendable (ClientError?) -> Void = { pending.complete(.result(Self.outcome($0))) }
        switch command {
        case .login(let user, let token, let offline): client.login(userId: user, token: token, offline: offline, completion: finish)
        case .logout(let unbind): client.logout(unbindDeviceToken: unbind, completion: finish)
        case .renewToken(let token): client.renewToken(token, completion: finish)
        default: Task { pending.complete(await execute(device: device, command)) }
        }
        return pending
    }

    private func initialize(_ device: String, _ setup: DeviceSetup, lastOnlineUser: String? = nil) -> AdapterReply {
        let fixtureDevice = setup.device
        var options: ClientOptions
        do {
            options = try ClientOptions(
                appKey: setup.appKey, device: fixtureDevice.description, syncTypes: fixtureDevice.syncTypes,
                profile: fixtureDevice.profile, reconnect: fixtureDevice.reconnect,
                loginTimeoutMs: fixtureDevice.loginTimeoutMs ?? 30_000, keepAliveIntervalMs: fixtureDevice.keepAliveMs ?? 10_000,
                randomSeed: setup.randomSeed,
                transport: transport.serves(fixtureDevice.description.platform) ? transport : .imockJSON)
            options.plantedBug = plantedBug
        } catch {
            return .result(["error": ["code": 110, "message": .string("invalid device: \(error)")]])
        }
        let existing = slots.withLock { $0[device] }
        let observer = existing?.observer ?? DelegateObserver(device: device, observations: observations)
        let queue = existing?.queue ?? DispatchQueue(label: "imock.harness.\(device)")
        let client: IMClient
        do {
            client = try IMClient(
                options: options, endpoint: endpoint, loop: loop, timerMode: .shared(timeline),
                callbackQueue: queue, lastOnlineUser: lastOnlineUser, sequencer: observations.sequencer)
        } catch {
            return .refused("cannot create the client of \(device): \(error)")
        }
        // OpenIM takes its listener at init (O1): nothing can be missed between init and login.
        if fixtureDevice.profile == .openim { client.addDelegate(observer, queue: queue) }
        slots.withLock {
            $0[device] = Slot(
                setup: setup, client: client, observer: observer, queue: queue,
                delegateAdded: fixtureDevice.profile == .openim)
        }
        return .result(Self.success)
    }

    func settle(skipping: Set<String>, guard waitGuard: WaitGuard) async throws(ScenarioFailure) {
        let current = slots.withLock { $0 }
        for (device, slot) in current.sorted(by: { $0.key < $1.key }) {
            guard let client = slot.client else { continue }
            if skipping.contains(device) {
                // Its network holds frames: no round trip, but what was asked of it locally (a
                // login opening its database …) is handled — a hop through its loop after it.
                _ = try await waitGuard.run("device \(device): its event loop") { await client.pendingTimers() }
            } else {
                // A connection attempt under way (explicit login or reconnect) runs its login timer.
                while true {
                    // Counted before looking, so an attempt ending in between is not waited for.
                    let seen = client.log.callbacks.count
                    guard await client.pendingTimers()[.loginTimeout] != nil else { break }
                    let moved = await client.log.wait(limit: waitGuard.remaining) { $0.count > seen }
                    guard moved else { throw waitGuard.hang("device \(device): its connection attempt to finish") }
                }
                _ = try await waitGuard.run("device \(device): the pong of its settle ping") { await client.roundTrip() }
            }
            try await waitGuard.run("device \(device): its delegate queue") {
                await withCheckedContinuation { done in slot.queue.async { done.resume() } }
            }
        }
    }

    /// None: the devices' timers are on the link's `Timeline`, which fires them as it moves.
    func pendingTimers() async -> [PendingTimer] { [] }

    func fire(_ timer: PendingTimer) async {}

    func close() async {
        let clients = slots.withLock { slots in
            defer { for key in slots.keys { slots[key]?.client = nil } }
            return slots.values.compactMap(\.client)
        }
        for client in clients { await client.shutdown() }
    }

    static let success: JSONValue = ["error": nil]

    static func outcome(_ error: ClientError?) -> JSONValue {
        guard let error else { return success }
        return ["error": ["code": .int(Int64(error.code)), "message": .string(error.message)]]
    }
}

/// The app's delegate of one device: every record it gets goes to the scenario's observations.
final class DelegateObserver: IMClientDelegate, Sendable {
    let device: String
    let observations: Observations

    init(device: String, observations: Observations) {
        self.device = device
        self.observations = observations
    }

    func imClient(didEmit callback: EmittedCallback) {
        for record in callback.records {
            observations.record(
                device: device, name: record.name, arguments: record.arguments,
                timeMs: record.timeMs, sequence: record.sequence)
        }
    }
}
