import IMockCommon
import IMockCore
import IMockNet
@testable import IMockServer
import IMockWire
import Testing

/// The session hub driven without sockets: its connections are ``EmbeddedHubChannel``s, its
/// clock a virtual timeline, and each test decides when the "socket" takes output, drains or
/// closes — the pacing of docs/PROTOCOL.md § Delivery, step by step.
@Suite("SessionHub without sockets")
struct SessionHubEmbeddedTests {
    /// A hub over a domain with app `acme#chat` and users alice and bob, its output cap `limit`
    /// (the pacing threshold is a quarter of it).
    final class Bench {
        let loop: EventLoop
        let clock = Timeline(mode: .virtual, startMs: 1_000_000)
        let hub: SessionHub
        let domain: LoopBound<Domain>
        let app: AppKey

        init(outputLimit: Int = 64 * 1024) throws {
            loop = try EventLoop()
            app = try AppKey(parsing: "acme#chat")
            var directory = Directory(settings: DirectorySettings(passwordIterations: 1))
            try directory.createApp(app, settings: AppSettings())
            for name in ["alice", "bob"] {
                try directory.registerUser(NewUser(username: name, password: "secret"), in: app, nowMs: clock.nowMs)
            }
            domain = LoopBound(Domain(directory: directory), on: loop)
            hub = SessionHub(
                loop: loop, clock: clock, domain: domain, idleTimeout: .seconds(30), outputLimit: outputLimit,
                logger: Logger(minimumLevel: .error))
        }

        /// Opens an imock JSON connection and logs `user` in on it.
        func login(_ user: String, on channel: EmbeddedHubChannel) throws -> ConnectionID {
            let id = hub.opened(channel, dialect: ImockJSONDialect(), peer: nil)
            let token = try domain.value.directory.issueInheritedUserToken(
                in: app, username: user, autoCreateUser: false, ttlSeconds: 3600, nowMs: clock.nowMs
            ).token.token
            hub.received(
                .text(#"{"op":"login","id":"l","appKey":"acme#chat","user":"\#(user)","token":"\#(token)","device":{"os":"ios","uuid":"\#(user)-1"}}"#),
                on: id)
            return id
        }

        /// Sends `count` texts of about a kilobyte each from `from` to bob, numbered from `first`.
        func send(_ count: Int, from id: ConnectionID, first: Int = 0) {
            let padding = String(repeating: "p", count: 1000)
            for number in first..<(first + count) {
                hub.received(.text(#"{"op":"send","id":"s\#(number)","to":"bob","text":"\#(number) \#(padding)"}"#), on: id)
            }
        }

        /// Bob's queue: what waits for his next login.
        var bobWaiting: [Int] {
            domain.value.engine.offlineMessages(of: "bob", in: app).compactMap { Int($0.text.prefix { $0 != " " }) }
        }
    }

    @Test("a login over an embedded channel is answered in the imock dialect's words")
    func loginIsAnswered() throws {
        let bench = try Bench()
        let alice = EmbeddedHubChannel()
        _ = try bench.login("alice", on: alice)
        #expect(alice.ops == ["login.ok"])
        #expect(bench.hub.connectionCount == 1)
    }

    @Test("an offline sync is written as the socket takes it: a quarter of the cap, then the rest after each drain, in order")
    func offlineSyncIsPaced() throws {
        let bench = try Bench()
        let alice = EmbeddedHubChannel()
        let sender = try bench.login("alice", on: alice)
        bench.send(100, from: sender)  // bob is away: 100 KB queued, more than the 64 KiB cap
        #expect(bench.bobWaiting.count == 100)

        let bob = EmbeddedHubChannel()
        bob.socketTakes = false
        _ = try bench.login("bob", on: bob)
        let firstShare = bob.messageTexts.count
        #expect(firstShare > 0 && firstShare < 20, "about 16 KiB, then the socket is full: \(firstShare)")
        #expect(bob.pendingOutputBytes >= 16 * 1024 && bob.isOpen)
        var drains = 0
        while !bob.ops.contains("offline.finish"), drains < 50 {
            bob.drain()
            drains += 1
        }
        #expect(bob.isOpen, "never closed for its own queue")
        #expect(bob.messageTexts.map { Int($0.prefix { $0 != " " })! } == Array(0..<100), "every message, in order")
        #expect(drains >= 5)
    }

    @Test("a backlog resumed into the cap's close puts back every message it had not written, the one it was about to write included")
    func resumeIntoACloseLosesNothing() throws {
        let bench = try Bench()
        let alice = EmbeddedHubChannel()
        let sender = try bench.login("alice", on: alice)
        let bob = EmbeddedHubChannel()
        bob.socketTakes = false
        _ = try bench.login("bob", on: bob)
        // Live messages to a peer that reads nothing: the socket fills (16 KiB), the rest waits.
        bench.send(20, from: sender)
        let written = bob.messageTexts.count
        #expect(written < 20 && bob.isOpen)
        // The kernel took what was written (not acknowledged by the peer yet: still held), and
        // more arrive while the backlog waits for the drain's notice: held is now just under
        // the cap, the socket's share empty.
        bob.drain(notify: false)
        bench.send(40, from: sender, first: 20)
        #expect(bob.isOpen, "under the cap while the socket is empty")
        // The drain's notice: the backlog goes out until what the socket holds passes the cap.
        bob.drain()
        #expect(bob.closedWith?.code.rawValue == 1008, "\(String(describing: bob.closedWith))")
        // Whatever bob was not written waits again at once, not at the socket's close.
        let received = bob.messageTexts.map { Int($0.prefix { $0 != " " })! }
        #expect(Set(received).union(bench.bobWaiting) == Set(0..<60), "lost: \(Set(0..<60).subtracting(received).subtracting(bench.bobWaiting).sorted())")
    }

    @Test("a logout while the offline sync waits for the socket is answered before the close; the sync waits for the next login")
    func logoutDuringAPacedSync() throws {
        let bench = try Bench()
        let alice = EmbeddedHubChannel()
        let sender = try bench.login("alice", on: alice)
        bench.send(100, from: sender)
        let bob = EmbeddedHubChannel()
        bob.socketTakes = false
        let id = try bench.login("bob", on: bob)
        #expect(!bob.ops.contains("offline.finish"), "the sync waits for the socket")
        bench.hub.received(.text(#"{"op":"logout","id":"o"}"#), on: id)
        #expect(bob.ops.last == "logout.ok", "\(bob.ops.suffix(3))")
        #expect(bob.closedWith?.code.rawValue == 1000)
        #expect(bench.bobWaiting == Array(0..<100), "nothing was acked: all of it waits, in order")
    }

    @Test("the journal keeps the last 10,000 entries, dropping the older half when full")
    func journalIsBounded() {
        var journal = HubJournal()
        for number in 0..<(HubJournal.capacity + 1) {
            journal.append(JournalEntry(
                atMs: Int64(number), connection: ConnectionID(1), app: nil, user: nil, resource: nil, event: .closed(code: 1000, reason: "")))
        }
        #expect(journal.entries.count == HubJournal.capacity / 2 + 1)
        #expect(journal.entries.first?.atMs == Int64(HubJournal.capacity / 2))
    }

    @Test("the journal's query keeps the entries after a number, at or after sinceMs, of the app, in recorded order, on a clock set back")
    func journalQuery() throws {
        var journal = HubJournal()
        let chat = try AppKey(parsing: "acme#chat")
        let other = try AppKey(parsing: "acme#other")
        // The clock was set back after the third entry: times are not in order.
        for (atMs, app) in [(10, chat), (20, other), (30, chat), (5, chat), (25, other), (40, chat)] {
            journal.append(JournalEntry(
                atMs: Int64(atMs), connection: ConnectionID(1), app: app, user: "u", resource: nil,
                event: .closed(code: 1000, reason: ""), dialect: "imock"))
        }
        func times(after: Int64? = nil, since: Int64? = nil, app: AppKey? = nil) -> [Int64] {
            journal.entries(afterSequence: after, sinceMs: since, app: app).map(\.entry.atMs)
        }
        #expect(journal.entries(afterSequence: nil, sinceMs: nil, app: nil).map(\.sequence) == [1, 2, 3, 4, 5, 6])
        #expect(times() == [10, 20, 30, 5, 25, 40])
        #expect(times(since: 20) == [20, 30, 25, 40])
        #expect(times(since: 20, app: chat) == [30, 40])
        #expect(times(app: other) == [20, 25])
        #expect(times(since: 41).isEmpty)
        #expect(times(after: 3) == [5, 25, 40])
        #expect(times(after: 3, since: 10, app: chat) == [40])
        #expect(times(after: 6).isEmpty && times(after: 1 << 53).isEmpty)
        #expect(times(after: 0) == times())
        #expect(journal.entries(afterSequence: 3, sinceMs: 30, app: chat).allSatisfy { $0.entry.dialect == "imock" && $0.entry.user == "u" })
    }

    @Test("journal numbers go on across the drop of the older half: a cursor misses nothing and repeats nothing")
    func journalNumbersSurviveTheDrop() {
        var journal = HubJournal()
        var cursor: Int64 = 0
        var read: [Int64] = []
        for number in 1...(HubJournal.capacity * 2 + 7) {
            let sequence = journal.append(JournalEntry(
                atMs: Int64(number), connection: ConnectionID(1), app: nil, user: nil, resource: nil, event: .closed(code: 1000, reason: "")))
            #expect(sequence == Int64(number))
            if number % 997 == 0 {
                let found = journal.entries(afterSequence: cursor, sinceMs: nil, app: nil)
                read += found.map(\.entry.atMs)
                cursor = found.last?.sequence ?? cursor
            }
        }
        read += journal.entries(afterSequence: cursor, sinceMs: nil, app: nil).map(\.entry.atMs)
        #expect(read == (1...Int64(HubJournal.capacity * 2 + 7)).map { $0 })
        #expect(journal.nextSequence == Int64(HubJournal.capacity * 2 + 8))
    }

    @Test("the idle sweep closes the silent connections and looks again at the next deadline, not sooner than its granularity")
    func idleSweep() {
        let silences = [
            IdleSweep.Silence(id: ConnectionID(2), lastActivityMs: 0, timeoutMs: 1000),
            IdleSweep.Silence(id: ConnectionID(1), lastActivityMs: 500, timeoutMs: 1000),
            IdleSweep.Silence(id: ConnectionID(3), lastActivityMs: 1990, timeoutMs: 1000),
        ]
        let first = IdleSweep.due(silences, nowMs: 1500, granularityMs: 125)
        #expect(first.close == [ConnectionID(1), ConnectionID(2)])
        #expect(first.nextMs == 2990)
        let soon = IdleSweep.due(silences.suffix(1), nowMs: 2980, granularityMs: 125)
        #expect(soon.close.isEmpty && soon.nextMs == 3105, "not sooner than the granularity")
        #expect(IdleSweep.due([], nowMs: 0, granularityMs: 10).nextMs == nil)
    }

    @Test("a clock that moved further than real time between two sweeps stepped: that step is not silence")
    func clockStepIsNotSilence() {
        // A VM's wall clock corrected 40 s forward while 1 s really passed: 39 s of the 40 were no silence.
        #expect(IdleSweep.clockStepMs(clockDeltaMs: 40_000, realDeltaMs: 1_000, granularityMs: 1_000) == 39_000)
        // Flowing with real time (within the sweep's granularity), a frozen virtual clock, or a
        // clock stepped back: nothing to forgive.
        #expect(IdleSweep.clockStepMs(clockDeltaMs: 30_400, realDeltaMs: 30_000, granularityMs: 1_000) == 0)
        #expect(IdleSweep.clockStepMs(clockDeltaMs: 0, realDeltaMs: 30_000, granularityMs: 1_000) == 0)
        #expect(IdleSweep.clockStepMs(clockDeltaMs: -5_000, realDeltaMs: 100, granularityMs: 1_000) == 0)
    }
}
