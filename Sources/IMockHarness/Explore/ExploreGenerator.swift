import IMockClient
import IMockCommon
import IMockCore

/// Draws random programs from a seed: the same seed and sizes give the same program. Pure.
///
/// The operations come in *motifs*, weighted toward the interleavings where clients go wrong:
/// an action while a login hangs on a black-holed network, during the reconnect back-off after a
/// cut, around a short token's warning and expiry, messages waiting offline for a login.
public struct ExploreGenerator: Sendable {
    /// The callback vocabulary of the devices.
    public var profile: SDKProfile
    /// About how many operations before the closing quiet period.
    public var steps: Int

    /// Every kick code the documents name (CONFORMANCE.md S5, C6; docs/PROTOCOL.md § Kick codes),
    /// and OpenIM's 2002.
    public static let kickCodes = [206, 207, 213, 214, 216, 217, 220, 305, 202, 8, 108, 104, 2002]

    /// A generator of programs of about `steps` operations in `profile`.
    public init(profile: SDKProfile, steps: Int) {
        self.profile = profile
        self.steps = steps
    }

    /// The program of `seed`.
    public func program(seed: UInt64) -> ExploreProgram {
        var draw = Draw(seed: seed)
        let userCount = draw.weighted([(1, 2), (2, 3), (3, 1)])
        let users = (1...userCount).map { "u\($0)" }
        var devices: [ExploreDevice] = []
        let platforms = profile == .openim ? ["openim:1", "openim:2", "openim:3", "openim:5", "openim:9"] : ["ios", "android", "windows", "web"]
        for user in users {
            for _ in 0..<draw.weighted([(1, 4), (2, 3), (3, 2), (4, 1)]) {
                devices.append(ExploreDevice(name: "d\(devices.count + 1)", user: user, platform: draw.pick(platforms)))
            }
        }
        var builder = Builder(users: users, devices: devices.map(\.name), ownerOf: Dictionary(uniqueKeysWithValues: devices.map { ($0.name, $0.user) }))
        while builder.operations.count < steps { builder.motif(&draw) }
        builder.closingQuiet()
        return ExploreProgram(profile: profile, policy: policy(&draw), users: users, devices: devices, operations: builder.operations)
    }

    /// One of the documented login policies (docs/SEED.md § Login policy).
    private func policy(_ draw: inout Draw) -> JSONValue {
        if profile == .openim { return ["vendor": "openim", "policy": .int(Int64(draw.pick([0, 1, 4, 5])))] }
        switch draw.below(5) {
        case 0: return ["vendor": "easemob"]
        case 1: return ["vendor": "easemob", "deviceLimits": ["mobile": .int(Int64(1 + draw.below(2)))]]
        case 2: return ["vendor": "easemob", "mode": "singleDevice", "rule": "newKicksOld"]
        case 3: return ["vendor": "easemob", "mode": "singleDevice", "rule": "firstDeviceWins", "keepCurrentDevice": .bool(draw.below(2) == 0)]
        default: return ["vendor": "easemob", "deviceLimits": ["default": 2], "keepCurrentDevice": true]
        }
    }
}

/// The seeded draws of one program.
struct Draw {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// A number in 0..<count.
    mutating func below(_ count: Int) -> Int { Int(random.next() % UInt64(max(count, 1))) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    /// A value by weight.
    mutating func weighted<T>(_ choices: [(T, Int)]) -> T {
        var ticket = below(choices.reduce(0) { $0 + $1.1 })
        for (value, weight) in choices {
            if ticket < weight { return value }
            ticket -= weight
        }
        return choices[choices.count - 1].0
    }

    /// A clock move of any size, small ones likelier: 1 ms to about two days, log-uniform.
    mutating func clockMove() -> Int64 {
        let exponent = Double(below(1000)) / 1000 * 8.2
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 10 }
        return max(1, Int64(value * (1 + Double(below(9)))))
    }
}

/// Builds the operations, keeping a rough model of who is logged in so that kicks and REST
/// calls mostly have a target (a miss only ends the program there: the server answers 404).
private struct Builder {
    let users: [String]
    let devices: [String]
    let ownerOf: [String: String]
    var operations: [ExploreOperation] = []
    var live: Set<String> = []
    var gone: Set<String> = []
    var faulted: Set<String> = []
    var messages = 0

    init(users: [String], devices: [String], ownerOf: [String: String]) {
        self.users = users
        self.devices = devices
        self.ownerOf = ownerOf
    }

    mutating func add(_ operation: ExploreOperation) {
        operations.append(operation)
        switch operation {
        case .login(let device, _): if !gone.contains(ownerOf[device]!) { live.insert(device) }
        case .logout(let device): live.remove(device)
        case .deleteUser(let user): gone.insert(user); endSessions(of: user)
        case .changePassword(let user), .deactivate(let user), .disconnect(let user), .expireToken(let user): endSessions(of: user)
        case .kick(let user, let device, _): if let device { live.remove(device) } else { endSessions(of: user) }
        case .network(let kind, let device): if kind == .restore { faulted.remove(device) } else { faulted.insert(device) }
        default: break
        }
    }

    private mutating func endSessions(of user: String) {
        live = live.filter { ownerOf[$0] != user }
    }

    mutating func motif(_ draw: inout Draw) {
        let device = draw.pick(devices)
        switch draw.weighted([(0, 4), (1, 2), (2, 3), (3, 3), (4, 3), (5, 2), (6, 2), (7, 1), (8, 2), (9, 4)]) {
        case 0: add(.login(device: device, ttlSeconds: draw.below(3) == 0 ? Int64(30 + draw.below(600)) : nil))
        case 1: add(.logout(device: device))
        case 2: sends(&draw)
        case 3: interference(&draw, around: device)
        case 4:  // an action while a login hangs on a black-holed network
            add(.network(.blackhole, device: device))
            add(.login(device: device, ttlSeconds: nil))
            interference(&draw, around: device)
            if draw.below(3) > 0 { add(.network(.restore, device: device)) }
        case 5:  // an action during the reconnect back-off after a drop
            if !live.contains(device) { add(.login(device: device, ttlSeconds: nil)) }
            add(.network(.cut, device: device))
            interference(&draw, around: device)
            add(.advance(ms: Int64(draw.below(4000))))
            if draw.below(3) > 0 { add(.network(.restore, device: device)) }
        case 6: tokenLife(&draw, device: device)
        case 7:  // messages waiting offline, then the login that syncs them, maybe with an action during the sync
            add(.logout(device: device))
            sends(&draw, to: ownerOf[device]!)
            let duringSync = draw.below(2) == 0
            if duringSync { add(.network(.blackhole, device: device)) }
            add(.login(device: device, ttlSeconds: nil))
            if duringSync {
                interference(&draw, around: device)
                add(.network(.restore, device: device))
            }
        case 8: add(.advance(ms: clockMove(&draw)))
        default:  // a kick of a connected device, with any code, and time for what follows
            if !live.contains(device) { add(.login(device: device, ttlSeconds: nil)) }
            add(.kick(user: ownerOf[device]!, device: draw.below(2) == 0 ? device : nil, code: draw.pick(ExploreGenerator.kickCodes)))
            if draw.below(2) == 0 { add(.advance(ms: Int64(1 + draw.below(10_000)))) }
        }
    }

    /// A clock move of any size; at most ten minutes while a network fault is on (a black hole
    /// makes every keep-alive ping fire at its own time: a day of them is slow, not interesting).
    private func clockMove(_ draw: inout Draw) -> Int64 {
        let move = draw.clockMove()
        return faulted.isEmpty ? move : min(move, 600_000)
    }

    /// A short token's life: login, a move to around its warning, maybe a renewal, past its expiry.
    private mutating func tokenLife(_ draw: inout Draw, device: String) {
        let ttl = Int64(20 + draw.below(200))
        add(.login(device: device, ttlSeconds: ttl))
        let warning = ttl * 800
        add(.advance(ms: max(1, warning + Int64(draw.below(4000)) - 2000)))
        if draw.below(2) == 0 { add(.renewToken(device: device, ttlSeconds: Int64(20 + draw.below(600)))) }
        if draw.below(3) == 0 { interference(&draw, around: device) }
        add(.advance(ms: ttl * 250 + Int64(draw.below(3000))))
    }

    private mutating func sends(_ draw: inout Draw, to: String? = nil) {
        let sender = live.isEmpty ? draw.pick(devices) : draw.pick(live.sorted())
        for _ in 0...draw.below(3) {
            messages += 1
            add(.send(device: sender, to: to ?? draw.pick(users), text: "m\(messages)"))
        }
    }

    /// Something from outside the device: a kick, a REST action, a token expiry, a clock move.
    private mutating func interference(_ draw: inout Draw, around device: String) {
        let user = ownerOf[device]!
        switch draw.weighted([(0, 4), (1, 2), (2, 2), (3, 2), (4, 3), (5, 1)]) {
        case 0 where live.contains(where: { ownerOf[$0] == user }):
            add(.kick(user: user, device: draw.below(2) == 0 && live.contains(device) ? device : nil, code: draw.pick(ExploreGenerator.kickCodes)))
        case 1 where !gone.contains(user):
            add(draw.pick([.changePassword(user: user), .disconnect(user: user), .deactivate(user: user)]))
            if case .deactivate = operations.last!, draw.below(2) == 0 { add(.activate(user: user)) }
        case 2 where !gone.contains(user) && draw.below(3) == 0: add(.deleteUser(user: user))
        case 3: add(.expireToken(user: user))
        case 4: add(.advance(ms: clockMove(&draw)))
        default: add(.renewToken(device: device, ttlSeconds: Int64(30 + draw.below(300))))
        }
    }

    /// The network back for every device, then two quiet minutes: time for every dropped
    /// device to reconnect (the dropped-device property looks at the end).
    mutating func closingQuiet() {
        for device in devices where faulted.contains(device) { add(.network(.restore, device: device)) }
        add(.advance(ms: 120_000))
    }
}
