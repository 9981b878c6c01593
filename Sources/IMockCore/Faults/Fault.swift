import IMockCommon
/// Identifies an active fault (unique for the server's life).
public struct FaultID: RawRepresentable, Hashable, Comparable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: FaultID, rhs: FaultID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One fault: what, to whom, until when, how likely per event, and its own seeded random stream.
public struct Fault: Sendable, Equatable {
    public let id: FaultID
    public let kind: FaultKind
    public let target: FaultTarget
    /// When it was created, on the server clock.
    public let createdAtMs: Int64
    /// When it clears itself, on the server clock (nil: until cleared).
    public let expiresAtMs: Int64?
    /// The chance (0–1) that it applies to one event (a frame, a connection, a logout, a login).
    public let probability: Double
    /// The seed of its random stream (derived from the server's `--seed-random`).
    public let seed: UInt64
    /// When it starts acting on a connection (nil: at once, on every matching connection).
    public let trigger: FaultTrigger?
    /// Frames `dropFrames` still discards.
    public internal(set) var remainingFrames: Int
    /// How many events it applied to so far.
    public internal(set) var applied: Int = 0
    var random: SplitMix64
    /// Per-connection choices of a black hole (decided once per connection).
    var connectionChoices: [ConnectionID: Bool] = [:]
    /// The connections its trigger fired on.
    var armed: Set<ConnectionID> = []
    /// Frames sent to each matching connection while it waited for `afterFrames`.
    var framesSeen: [ConnectionID: Int] = [:]
    /// Bytes each matching connection passed (`limitData`).
    var bytesSeen: [ConnectionID: Int64] = [:]

    /// Creates a fault.
    public init(
        id: FaultID, kind: FaultKind, target: FaultTarget, createdAtMs: Int64, expiresAtMs: Int64?,
        probability: Double, seed: UInt64, trigger: FaultTrigger? = nil
    ) {
        self.id = id
        self.kind = kind
        self.target = target
        self.createdAtMs = createdAtMs
        self.expiresAtMs = expiresAtMs
        self.probability = min(max(probability, 0), 1)
        self.seed = seed
        self.trigger = trigger
        self.random = SplitMix64(seed: seed)
        if case .dropFrames(let count) = kind { remainingFrames = count } else { remainingFrames = 0 }
    }

    /// Draws whether the fault applies to one event; counts it when it does.
    public mutating func roll() -> Bool {
        let hit = random.chance(probability)
        if hit { applied += 1 }
        return hit
    }

    /// Whether it acts on `connection` now: no trigger, or its trigger fired there.
    func isArmed(for connection: ConnectionID) -> Bool {
        trigger == nil || armed.contains(connection)
    }

    /// Whether it acts once and ends: a drop or reset without a duration, kept only while its
    /// trigger waits (without a trigger it acts at its creation and is not kept).
    var endsAfterFirstUse: Bool { kind.endsConnection && expiresAtMs == nil }

    /// Counts one frame to `connection` that is an instance of `events` and arms the trigger
    /// when it fires (``FaultTrigger``: after N frames, the N+1st; on an event, that frame).
    mutating func observeFrame(_ events: Set<FaultEvent>, to connection: ConnectionID) {
        guard let trigger, !armed.contains(connection) else { return }
        switch trigger {
        case .afterFrames(let count):
            let seen = framesSeen[connection, default: 0]
            if seen >= count {
                armed.insert(connection)
                framesSeen[connection] = nil
            } else {
                framesSeen[connection] = seen + 1
            }
        case .on(let event):
            if events.contains(event) { armed.insert(connection) }
        }
    }

    /// Draws a whole number from 0 to `maximum` (a delay's jitter).
    mutating func draw(upTo maximum: Int64) -> Int64 {
        maximum > 0 ? Int64(random.next() % UInt64(maximum + 1)) : 0
    }

    /// Counts `bytes` passing on `connection` for a `limitData`; true when they cross the limit
    /// (and the fault's probability says it acts).
    mutating func crossesLimit(adding bytes: Int, on connection: ConnectionID) -> Bool {
        guard case .limitData(let limit, _) = kind else { return false }
        let total = bytesSeen[connection, default: 0] + Int64(bytes)
        guard total > limit else {
            bytesSeen[connection] = total
            return false
        }
        return roll()
    }

    /// Decides once per connection (black hole) and remembers the choice.
    mutating func rollOnce(for connection: ConnectionID) -> Bool {
        if let choice = connectionChoices[connection] { return choice }
        let hit = roll()
        connectionChoices[connection] = hit
        return hit
    }
}
