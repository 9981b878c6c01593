import Foundation
import IMockCommon
import IMockCore
import IMockNet
import IMockStore
import IMockTestSupport
import Testing

/// Crash safety of `imock serve --data` (docs/PERSISTENCE.md): clients register users, queue
/// and ack offline messages at full speed; the server is killed with SIGKILL at a random
/// moment; the store then passes `PRAGMA integrity_check` and holds every acknowledged write,
/// no acked message, nothing half-written and nothing twice; a server restarted on it serves
/// that state and gives out new message ids.
///
/// `swift test` runs a few short rounds; `IMOCK_CRASH_SEEDS=1-50` runs more (each round is
/// bounded: a warm-up until every kind of write was acknowledged, a random delay under 1 s,
/// two server starts).
@Suite("persistence: SIGKILL at a random moment", .serialized)
struct CrashTests {
    static var seeds: [UInt64] {
        let spec = ProcessInfo.processInfo.environment["IMOCK_CRASH_SEEDS"] ?? "1-3"
        let bounds = spec.split(separator: "-").compactMap { UInt64($0) }
        guard let low = bounds.first else { return [1, 2, 3] }
        return Array(low...(bounds.last ?? low))
    }

    @Test("every acknowledged write survives SIGKILL, nothing half-done or duplicated", arguments: seeds)
    func killAndCheck(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let data = try ExternalCommand.temporaryDirectory()
        let arguments = ["--data", data, "--app", "acme#chat:open"]
        let server = try await IMockProcess.start(arguments)
        let http = HTTPTestClient(port: server.port)
        let pairs = try await offPool {
            try (0..<3).map { worker in
                (sender: ("s\(worker)", try http.userToken(appPath: "/acme/chat", user: "s\(worker)", ttl: 86_400)),
                 recipient: ("t\(worker)", try http.userToken(appPath: "/acme/chat", user: "t\(worker)", ttl: 86_400)))
            }
        }

        // Full speed until the kill.
        let ledger = CrashLedger()
        let clientLoop = try EventLoop()
        clientLoop.start()
        let registrations = (0..<2).map { CrashWorkload.startRegistrations(worker: $0, port: server.port, ledger: ledger) }
        let messaging = pairs.enumerated().map { worker, pair in
            let batch = 1 + Int(random.next() % 8)
            return Task {
                await CrashWorkload.messaging(
                    worker: worker, port: server.port, loop: clientLoop, sender: pair.sender, recipient: pair.recipient,
                    batch: batch, ledger: ledger)
            }
        }
        // Every kind of write is under way before the clock for the kill starts (a busy
        // machine may be slow to schedule the clients), then the moment is random.
        let warmUp = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < warmUp {
            let counts = ledger.counts
            if counts.registrations >= 10, counts.sends >= 10, counts.acks >= 10 { break }
            try await Task.sleep(for: .milliseconds(2))
        }
        let delay = Int(random.next() % 1000)
        try await Task.sleep(for: .milliseconds(delay))
        #expect(try await offPool { server.kill() } == .signalled(SIGKILL))
        for task in messaging { await task.value }
        while registrations.contains(where: { !$0.isFinished }) { try await Task.sleep(for: .milliseconds(5)) }
        clientLoop.stop()
        let counts = ledger.counts
        #expect(counts.registrations > 0 && counts.sends > 0 && counts.acks > 0, "seed \(seed): \(counts)")
        print(
            "crash seed \(seed): SIGKILL \(delay) ms after the warm-up; acknowledged \(counts.registrations) registrations, "
                + "\(counts.sends) queued messages, \(counts.acks) acks")

        // The store as the kill left it.
        let store = try PersistentStore.open(directory: data)
        try store.checkIntegrity()
        let state = try store.load()
        store.close()
        try check(state, against: ledger, pairs: pairs.map { ($0.sender.0, $0.recipient.0) }, seed: seed)

        // A server restarted on it serves that state and goes on with fresh message ids.
        let restarted = try await IMockProcess.start(arguments)
        let users = state.document.apps.first?.users.count ?? 0
        #expect(restarted.logText.contains(" state=loaded apps=1 users=\(users) "), "\(restarted.logText)")
        let probeLoop = try EventLoop()
        probeLoop.start()
        defer { probeLoop.stop() }
        let probe = try await ProtocolClient.connect(loop: probeLoop, port: restarted.port)
        probe.login(app: CrashWorkload.app, user: pairs[0].sender.0, token: pairs[0].sender.1, uuid: "probe")
        #expect(await probe.next(op: "login.ok")["op"]?.string == "login.ok")
        probe.send(#"{"op":"send","id":"p","to":"\#(pairs[0].sender.0)","text":"after"}"#)
        let fresh = UInt64(await probe.next(op: "send.ok")["messageId"]?.string ?? "") ?? 0
        let highest = ledger.sentIDs.values.compactMap { UInt64($0) }.max() ?? 0
        #expect(fresh > highest, "seed \(seed): message id \(fresh) after the restart, \(highest) given out before")
        #expect(try await offPool { restarted.terminate() } == .exited(0))
    }

    /// Every acknowledged write is stored; what is stored was attempted, is whole and is there once.
    private func check(_ state: StoredState, against ledger: CrashLedger, pairs: [(String, String)], seed: UInt64) throws {
        let app = try #require(state.document.apps.first { $0.appKey.description == CrashWorkload.app })
        let stored = Set(app.users.map(\.username))
        #expect(stored.count == app.users.count, "seed \(seed): a username twice")
        #expect(Set(app.users.compactMap(\.uuid)).count == app.users.count, "seed \(seed): a uuid twice")
        let missing = ledger.registeredUsers.subtracting(stored)
        #expect(missing.isEmpty, "seed \(seed): acknowledged registrations lost: \(missing.sorted())")
        let fixed = Set(pairs.flatMap { [$0.0, $0.1] })
        let unknown = stored.subtracting(ledger.attemptedUsers).subtracting(fixed)
        #expect(unknown.isEmpty, "seed \(seed): users nobody registered: \(unknown.sorted())")
        for user in app.users where ledger.attemptedUsers.contains(user.username) {
            // Whole: the hash of the password it was registered with.
            guard case .hashed(let hash) = user.password else {
                Issue.record("seed \(seed): \(user.username) has no password hash")
                continue
            }
            #expect(hash.hash.count == 32 && hash.salt.count > 0 && user.uuid != nil && user.sequence != nil)
        }

        let attempted = ledger.attemptedSends
        let sentIDs = ledger.sentIDs
        let textByID = Dictionary(uniqueKeysWithValues: sentIDs.map { ($0.value, $0.key) })
        let acked = ledger.ackedIDs
        var queued: Set<String> = []
        for queue in state.offlineQueues {
            let ids = queue.messages.map(\.messageId)
            #expect(Set(ids).count == ids.count, "seed \(seed): a message twice in \(queue.recipient)'s queue")
            let serials = ids.compactMap { UInt64($0) }
            #expect(serials == serials.sorted(), "seed \(seed): \(queue.recipient)'s queue out of order: \(ids)")
            for message in queue.messages {
                queued.insert(message.messageId)
                #expect(!acked.contains(message.messageId), "seed \(seed): acked message \(message.messageId) still queued")
                guard let send = attempted[message.text] else {
                    Issue.record("seed \(seed): message \(message.messageId) '\(message.text)' was never sent")
                    continue
                }
                #expect(send.from == message.from && send.to == queue.recipient, "seed \(seed): \(message) is not \(send)")
                if let id = sentIDs[message.text] { #expect(id == message.messageId, "seed \(seed): \(message.text)") }
                #expect(message.messageId.isEmpty == false && UInt64(message.messageId) != nil)
            }
        }
        // An ack sent but not answered may or may not have been committed; every other
        // acknowledged message is still queued.
        let ackAttempted = ledger.attemptedAcks
        for (id, text) in textByID where !ackAttempted.contains(id) {
            #expect(queued.contains(id), "seed \(seed): acknowledged message \(id) '\(text)' lost")
        }
        let highest = sentIDs.values.compactMap { UInt64($0) }.max() ?? 0
        #expect((state.nextMessageSerial ?? 0) > highest, "seed \(seed): the next message id would repeat one given out")
    }
}
