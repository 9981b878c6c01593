import Glibc
import IMockCore
import Testing

@testable import IMockStore

/// Prints what a group commit costs on this machine (docs/PERSISTENCE.md, "Measured costs"):
/// `apply` latency (p50 / p99 / max) for batches of registrations, queued messages and acks, in both
/// durability modes, and the time to load a large store. No timed assertions: the figures are
/// for the document, and shared CI machines vary. `IMOCK_STORE_BENCH_BATCHES` sets the
/// number of batches per cell (default 30, a smoke run; the figures in the document use 1000).
@Suite(.serialized) struct ApplyLatencyTests {
    static let batchCount = Int(ProcessEnvironmentValue.get("IMOCK_STORE_BENCH_BATCHES") ?? "") ?? 30

    @Test(
        "apply latency: p50 / p99 per batch of 1, 10 and 100 changes",
        arguments: StoreOptions.Durability.allCases, StoreOptions.Checkpointing.allCases)
    func applyLatency(durability: StoreOptions.Durability, checkpointing: StoreOptions.Checkpointing) throws {
        let scratch = try ScratchDirectory()
        let options = StoreOptions(durability: durability, checkpointing: checkpointing)
        let store = try PersistentStore.open(directory: scratch.path, options: options)
        try StoreFixtures.storeApp(users: 0...0, in: store)
        var nextUser = 1
        var nextMessage = 1
        var lines: [String] = []
        for size in [1, 10, 100] {
            let registrations = try measure(Self.batchCount) {
                let batch = (nextUser..<nextUser + size).map { StoreChange.userUpserted(app: StoreFixtures.chat, user: StoreFixtures.user($0)) }
                nextUser += size
                try store.apply(batch)
            }
            let firstMessage = nextMessage
            let queued = try measure(Self.batchCount) {
                let batch = (nextMessage..<nextMessage + size).map {
                    StoreChange.offlineMessageQueued(app: StoreFixtures.chat, StoreFixtures.message($0, from: "user-0", to: "user-\($0 % 50 + 1)"))
                }
                nextMessage += size
                try store.apply(batch)
            }
            var nextAck = firstMessage
            let acks = try measure(Self.batchCount) {
                let batch = (nextAck..<nextAck + size).map {
                    StoreChange.offlineMessageRemoved(app: StoreFixtures.chat, recipient: "user-\($0 % 50 + 1)", messageID: String($0))
                }
                nextAck += size
                try store.apply(batch)
            }
            lines.append("| \(durability.rawValue) | \(checkpointing.rawValue) | \(size) | \(registrations) | \(queued) | \(acks) |")
        }
        try store.checkIntegrity()
        print("""
            apply latency, \(Self.batchCount) batches per cell, p50 / p99 / max in ms:
            | durability | checkpoints | batch | registrations | messages queued | acks |
            |---|---|---|---|---|---|
            \(lines.joined(separator: "\n"))
            """)
    }

    @Test("load time of a store with 10,000 users and 10,000 queued messages")
    func loadTime() throws {
        let scratch = try ScratchDirectory()
        let store = try PersistentStore.open(directory: scratch.path)
        let app = try StoreFixtures.app(users: 1...10_000)
        let clock = ContinuousClock()
        let writeTime = try clock.measure { try store.apply([.appReplaced(app)]) }
        try store.apply((1...10_000).map {
            .offlineMessageQueued(app: StoreFixtures.chat, StoreFixtures.message($0, to: "user-\($0 % 1000 + 1)"))
        })
        var state = StoredState()
        let loadTime = try clock.measure { state = try store.load() }
        #expect(state.document.apps.first?.users.count == 10_000)
        #expect(state.offlineQueues.count == 1000)
        print("store of 10,000 users: appReplaced \(Self.milliseconds(writeTime)) ms, load with 10,000 queued messages \(Self.milliseconds(loadTime)) ms")
    }

    /// Runs `body` `count` times and gives `p50 / p99 / max` of its durations in milliseconds.
    private func measure(_ count: Int, _ body: () throws -> Void) throws -> String {
        let clock = ContinuousClock()
        var samples: [Duration] = []
        for _ in 0..<count { samples.append(try clock.measure(body)) }
        samples.sort()
        let p50 = samples[samples.count / 2]
        let p99 = samples[min(samples.count - 1, (samples.count * 99) / 100)]
        return [p50, p99, samples[samples.count - 1]].map(Self.milliseconds).joined(separator: " / ")
    }

    static func milliseconds(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        let hundredths = (ms * 100).rounded()
        return "\(hundredths / 100)"
    }
}

/// Reads one environment variable.
enum ProcessEnvironmentValue {
    static func get(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
