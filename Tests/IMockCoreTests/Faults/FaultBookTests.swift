import IMockCommon
import Testing
@testable import IMockCore

@Suite("Faults: seeded random and the fault book")
struct FaultBookTests {
    let app = try! AppKey(parsing: "acme#chat")
    let other = try! AppKey(parsing: "other#chat")

    func subject(_ connection: UInt64, app: AppKey? = nil, user: String? = nil, resource: String? = nil) -> FaultSubject {
        FaultSubject(connection: ConnectionID(connection), app: app ?? self.app, user: user, resource: resource)
    }

    @Test("SplitMix64 is the reference sequence and reproducible")
    func splitMix() {
        var generator = SplitMix64(seed: 1234567)
        // Reference values of SplitMix64 for seed 1234567.
        #expect(generator.next() == 6_457_827_717_110_365_317)
        #expect(generator.next() == 3_203_168_211_198_807_973)
        var a = SplitMix64(seed: 9), b = SplitMix64(seed: 9)
        #expect((0..<100).map { _ in a.nextUnit() } == (0..<100).map { _ in b.nextUnit() })
        var certain = SplitMix64(seed: 1)
        #expect(certain.chance(1) && !certain.chance(0))
        #expect(certain == SplitMix64(seed: 1), "certain chances draw nothing")
        #expect(SplitMix64.derive(7, 1) != SplitMix64.derive(7, 2))
    }

    @Test("targets match app, user, resource and connection")
    func targets() {
        let alice = subject(1, user: "alice", resource: "ios_a")
        #expect(FaultTarget.app(app).matches(alice))
        #expect(!FaultTarget.app(other).matches(alice))
        #expect(FaultTarget.user(app, "alice").matches(alice))
        #expect(!FaultTarget.user(app, "bob").matches(alice))
        #expect(FaultTarget.resource(app, user: "alice", resource: "ios_a").matches(alice))
        #expect(!FaultTarget.resource(app, user: "alice", resource: "ios_b").matches(alice))
        #expect(FaultTarget.connection(ConnectionID(1)).matches(alice))
        #expect(!FaultTarget.app(app).matches(FaultSubject(connection: ConnectionID(1))))
    }

    @Test("dropFrames discards N frames, never a close, and reports when it is used up")
    func dropFrames() {
        var book = FaultBook()
        book.seedIfNeeded(1)
        let fault = book.make(.dropFrames(count: 2), target: .app(app), nowMs: 0, durationMs: nil, probability: 1)
        book.insert(fault)
        #expect(book.decide(.close, for: subject(1)).action == .deliver)
        #expect(book.decide(.frame, for: subject(1)).action == .discard)
        let last = book.decide(.pong, for: subject(1))
        #expect(last.action == .discard && last.finished == [fault.id])
    }

    @Test("noPong, holdLogin and delay act on their frames; other apps are untouched")
    func frameFaults() {
        var book = FaultBook()
        book.insert(book.make(.noPong, target: .app(app), nowMs: 0, durationMs: nil, probability: 1))
        book.insert(book.make(.holdLogin(ms: 500), target: .app(app), nowMs: 0, durationMs: nil, probability: 1))
        book.insert(book.make(.delay(ms: 100), target: .user(app, "amy"), nowMs: 0, durationMs: nil, probability: 1))
        #expect(book.decide(.pong, for: subject(1)).action == .discard)
        #expect(book.decide(.pong, for: subject(2, app: other)).action == .deliver)
        #expect(book.decide(.loginReply, for: subject(1)).holdMs == 500)
        #expect(book.decide(.frame, for: subject(1)).holdMs == 0)
        #expect(book.decide(.frame, for: subject(1, user: "amy")).holdMs == 100)
        #expect(book.decide(.loginReply, for: subject(2, app: other)) == FaultDecision())
    }

    @Test("drop and reset end the connection instead of a frame; black holes decide once per connection")
    func connectionFaults() {
        var book = FaultBook()
        let hole = book.make(.blackhole, target: .app(app), nowMs: 0, durationMs: nil, probability: 1)
        book.insert(hole)
        #expect(book.decide(.frame, for: subject(1)).blackholedBy == hole.id)
        book.insert(book.make(.reset, target: .connection(ConnectionID(3)), nowMs: 0, durationMs: 10, probability: 1))
        #expect(book.decide(.frame, for: subject(3)).action == .reset)
        #expect(book.decide(.close, for: subject(3)).action == .deliver)
        #expect(FaultKind.drop.endsConnection && !FaultKind.blackhole.endsConnection)
    }

    @Test("engine faults roll per request: failUnbind on unbinding logouts, failSync on the asked types")
    func commandFaults() {
        var book = FaultBook()
        book.insert(book.make(.failUnbind, target: .app(app), nowMs: 0, durationMs: nil, probability: 1))
        book.insert(book.make(.failSync(types: [.contacts]), target: .app(app), nowMs: 0, durationMs: nil, probability: 1))
        #expect(book.commandFaults(for: subject(1), logoutUnbinds: true, syncTypes: []) == CommandFaults(failUnbind: true))
        #expect(book.commandFaults(for: subject(1), logoutUnbinds: false, syncTypes: []) == CommandFaults())
        #expect(
            book.commandFaults(for: subject(1), logoutUnbinds: false, syncTypes: [.contacts, .joinedGroups])
                == CommandFaults(failingSyncTypes: [.contacts]))
        #expect(book.commandFaults(for: subject(1, app: other), logoutUnbinds: true, syncTypes: [.contacts]) == CommandFaults())
    }

    @Test("the same base seed gives the same choices; a different seed other choices")
    func seededChoices() {
        func choices(seed: UInt64) -> [Bool] {
            var book = FaultBook()
            book.seedIfNeeded(seed)
            book.insert(book.make(.noPong, target: .app(app), nowMs: 0, durationMs: nil, probability: 0.5))
            return (0..<64).map { _ in book.decide(.pong, for: subject(1)).action == .discard }
        }
        #expect(choices(seed: 42) == choices(seed: 42))
        #expect(choices(seed: 42) != choices(seed: 43))
        #expect(choices(seed: 42).contains(true) && choices(seed: 42).contains(false))
    }

    @Test("expiry, removal by id and by app")
    func removal() {
        var book = FaultBook()
        let a = book.make(.noPong, target: .app(app), nowMs: 100, durationMs: 50, probability: 1)
        let b = book.make(.noPong, target: .app(other), nowMs: 100, durationMs: nil, probability: 1)
        book.insert(a)
        book.insert(b)
        #expect(a.expiresAtMs == 150 && b.expiresAtMs == nil)
        #expect(book.removeAll(app: other).map(\.id) == [b.id])
        #expect(book.remove(b.id) == nil)
        #expect(book.remove(a.id)?.id == a.id)
        #expect(book.isEmpty)
    }
}
