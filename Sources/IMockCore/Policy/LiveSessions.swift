/// What a device is counted in by a device policy: its Easemob platform group, or its OpenIM
/// platform id (policies 4 and 5 combine the platforms of a class).
public enum DeviceBucket: Sendable, Hashable {
    case easemob(EasemobPlatformGroup)
    case openIM(OpenIMPlatform)

    /// Whether it holds Easemob devices.
    public var isEasemob: Bool {
        if case .easemob = self { return true }
        return false
    }
}

extension LoginDevice {
    /// The bucket the device is counted in.
    public var bucket: DeviceBucket {
        switch platform {
        case .easemob(let platform): .easemob(platform.group)
        case .openIM(let platform): .openIM(platform)
        }
    }
}

/// One user's live sessions, in login order — login time, then session id — as the device
/// policy and the session engine read them.
///
/// A login reads the sessions holding its resource and those of its bucket, never all of the
/// user's: with more than ``indexThreshold`` sessions (a load test of one account) those
/// lookups go through an index by resource and by bucket, with per-bucket counts; below it a
/// scan of the few is cheaper in time and in memory. Removing a session leaves a hole that a
/// later compaction closes, so ending every session of a user, in any order, stays linear.
public struct LiveSessions: Sendable {
    /// Sessions in login order; nil is a hole (only while indexed).
    private var slots = SessionSlots()
    /// The index or none, and a threshold other than ``indexThreshold`` (tests lower it to
    /// check the index against the scans), in one word: a user with few sessions (nearly all
    /// of them) pays one word for both, and the engine's per-user slot none for a threshold
    /// (docs/BENCHMARKS.md, `fleet`).
    private var lookup = Lookup.scan

    /// Two reference payloads and an empty case: one word (an optional payload took a byte more).
    private enum Lookup: Sendable {
        case scan
        case scanWithThreshold(CustomThreshold)
        /// A reference, copied before a change when shared.
        case indexed(Index)
    }

    private final class CustomThreshold: Sendable {
        let value: Int32

        init(_ value: Int32) { self.value = value }
    }

    private var index: Index? {
        if case .indexed(let index) = lookup { index } else { nil }
    }

    private var customThreshold: CustomThreshold? {
        switch lookup {
        case .scan: nil
        case .scanWithThreshold(let custom): custom
        case .indexed(let index): index.threshold
        }
    }

    /// This value's threshold.
    private var threshold: Int32 { customThreshold?.value ?? Int32(Self.indexThreshold) }

    /// Above this many sessions, lookups go through the index.
    public static let indexThreshold = 32

    /// The number of live sessions.
    public var count: Int { index?.position.count ?? slots.count }

    /// Positions in `slots`, by session, resource and bucket.
    private final class Index: @unchecked Sendable {
        // @unchecked: only mutated through a uniquely referenced `LiveSessions` (copy on write).
        var position: [SessionID: Int] = [:]
        var byResource: [String: [Int]] = [:]
        var byBucket: [DeviceBucket: BucketList] = [:]
        var liveInBucket: [DeviceBucket: Int] = [:]
        var holes = 0
        /// The threshold of the value that holds it, when not the default.
        let threshold: CustomThreshold?

        init(threshold: CustomThreshold?) { self.threshold = threshold }

        func copy() -> Index {
            let copy = Index(threshold: threshold)
            copy.position = position
            copy.byResource = byResource
            copy.byBucket = byBucket
            copy.liveInBucket = liveInBucket
            copy.holes = holes
            return copy
        }
    }

    /// The index, copied first when another value shares it.
    private mutating func uniqueIndex() -> Index? {
        guard case .indexed(var index) = lookup else { return nil }
        lookup = .scan  // only `index` holds it now, unless another value does
        if !isKnownUniquelyReferenced(&index) { index = index.copy() }
        lookup = .indexed(index)
        return index
    }

    /// No sessions.
    public init() {}

    /// `sessions` in any order.
    public init(_ sessions: some Sequence<LiveSession>) {
        for session in sessions { insert(session) }
    }

    /// `sessions` in any order, indexed above `indexThreshold` sessions (0: always).
    init(_ sessions: some Sequence<LiveSession>, indexThreshold: Int) {
        if indexThreshold != Self.indexThreshold { lookup = .scanWithThreshold(CustomThreshold(Int32(clamping: indexThreshold))) }
        for session in sessions { insert(session) }
    }

    /// Whether lookups go through the index now.
    var isIndexed: Bool { index != nil }

    /// Whether there is no live session.
    public var isEmpty: Bool { count == 0 }

    /// A bucket's positions in login order from `head` on; holes behind the first live one
    /// are skipped by moving `head`, holes further on when read.
    private struct BucketList: Sendable {
        var positions: [Int] = []
        var head = 0
    }

    // MARK: Changes

    /// Adds a session (normally the latest login: appended).
    public mutating func insert(_ session: LiveSession) {
        if let last = latest(where: { _ in true }), Self.precedes(session, last) {
            // A login time before the latest (the wall clock stepped back): placed in order.
            var all = self.all
            let at = all.firstIndex { Self.precedes(session, $0) } ?? all.count
            all.insert(session, at: at)
            rebuild(all)
            return
        }
        slots.append(session)
        if let index = uniqueIndex() {
            Self.note(session, at: slots.count - 1, in: index)
        } else if slots.count > threshold {
            rebuild(all)
        }
    }

    /// Removes the session `id`; returns it, or nil when it is not here.
    @discardableResult
    public mutating func remove(_ id: SessionID) -> LiveSession? {
        guard let index = uniqueIndex() else {
            guard let at = slots.firstIndex(where: { $0?.id == id }), let session = slots.remove(at: at) else { return nil }
            return session
        }
        guard let at = index.position.removeValue(forKey: id), let session = slots[at] else { return nil }
        slots[at] = nil
        index.holes += 1
        let resource = session.device.resource
        index.byResource[resource]?.removeAll { $0 == at }
        if index.byResource[resource]?.isEmpty == true { index.byResource[resource] = nil }
        let bucket = session.device.bucket
        let left = (index.liveInBucket[bucket] ?? 1) - 1
        index.liveInBucket[bucket] = left > 0 ? left : nil
        if left == 0 {
            index.byBucket[bucket] = nil
        } else if var list = index.byBucket.removeValue(forKey: bucket) {
            while list.head < list.positions.count, slots[list.positions[list.head]] == nil { list.head += 1 }
            index.byBucket[bucket] = list
        }
        if count <= threshold / 2 || index.holes > max(count, Int(threshold)) { rebuild(all) }
        return session
    }

    private mutating func rebuild(_ sessions: [LiveSession]) {
        slots = SessionSlots(sessions)
        guard sessions.count > threshold / 2 || (threshold == 0 && !sessions.isEmpty) else {
            lookup = customThreshold.map(Lookup.scanWithThreshold) ?? .scan
            return
        }
        let index = Index(threshold: customThreshold)
        for (at, session) in sessions.enumerated() { Self.note(session, at: at, in: index) }
        lookup = .indexed(index)
    }

    private static func note(_ session: LiveSession, at position: Int, in index: Index) {
        index.position[session.id] = position
        index.byResource[session.device.resource, default: []].append(position)
        let bucket = session.device.bucket
        index.byBucket[bucket, default: BucketList()].positions.append(position)
        index.liveInBucket[bucket, default: 0] += 1
    }

    // MARK: Reads

    /// Every session, in login order.
    public var all: [LiveSession] { slots.compactMap { $0 } }

    /// Calls `body` with each session in login order, building no array.
    public func forEach(_ body: (LiveSession) throws -> Void) rethrows {
        for case let session? in slots { try body(session) }
    }

    /// The sessions holding `resource`, in login order.
    public func sessions(withResource resource: String) -> [LiveSession] {
        guard let index else { return all.filter { $0.device.resource == resource } }
        return (index.byResource[resource] ?? []).compactMap { slots[$0] }
    }

    /// How many sessions `bucket` holds.
    public func count(in bucket: DeviceBucket) -> Int {
        guard let index else { return slots.reduce(0) { $0 + ($1?.device.bucket == bucket ? 1 : 0) } }
        return index.liveInBucket[bucket] ?? 0
    }

    /// How many sessions the buckets matching `include` hold.
    public func count(inBuckets include: (DeviceBucket) -> Bool) -> Int {
        guard let index else { return slots.reduce(0) { $0 + (($1.map { include($0.device.bucket) } ?? false) ? 1 : 0) } }
        return index.liveInBucket.reduce(0) { $0 + (include($1.key) ? $1.value : 0) }
    }

    /// The sessions of the buckets matching `include` that satisfy `condition`, in login order,
    /// at most `limit` of them. Reads only those buckets (and stops at the limit for one bucket).
    public func sessions(
        inBuckets include: (DeviceBucket) -> Bool, where condition: (LiveSession) -> Bool = { _ in true },
        limit: Int = .max
    ) -> [LiveSession] {
        guard limit > 0 else { return [] }
        guard let index else {
            var found: [LiveSession] = []
            for case let session? in slots where include(session.device.bucket) && condition(session) {
                found.append(session)
                if found.count == limit { break }
            }
            return found
        }
        let lists = index.byBucket.filter { include($0.key) }.map { $0.value.positions[$0.value.head...] }
        let positions = lists.count == 1 ? lists[0] : ArraySlice(lists.flatMap { $0 }.sorted())
        var found: [LiveSession] = []
        for position in positions {
            guard let session = slots[position], condition(session) else { continue }
            found.append(session)
            if found.count == limit { break }
        }
        return found
    }

    /// The latest session satisfying `condition`.
    public func latest(where condition: (LiveSession) -> Bool) -> LiveSession? {
        for slot in slots.reversed() {
            if let session = slot, condition(session) { return session }
        }
        return nil
    }

    /// Whether `lhs` logged in before `rhs` (login time, then session id).
    static func precedes(_ lhs: LiveSession, _ rhs: LiveSession) -> Bool {
        (lhs.device.loginTimeMs, lhs.id) < (rhs.device.loginTimeMs, rhs.id)
    }
}
