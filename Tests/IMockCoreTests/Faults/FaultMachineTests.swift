import IMockCommon
import Testing
@testable import IMockCore

/// The fault machine driven directly: items are strings, the time an argument, and every
/// effect an action to compare — no socket, no clock.
@Suite("Faults: the fault machine")
struct FaultMachineTests {
    typealias Machine = FaultMachine<String, String>

    let app = try! AppKey(parsing: "acme#chat")
    let ms: Int64 = 1_000_000

    func subject(_ connection: UInt64, user: String = "amy") -> FaultSubject {
        FaultSubject(connection: ConnectionID(connection), app: app, user: user, resource: "r\(connection)")
    }

    /// A readable form of actions.
    func describe(_ actions: [Machine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .send(let id, let item): "send \(id.rawValue) \(item)"
            case .drop(let id): "drop \(id.rawValue)"
            case .reset(let id): "reset \(id.rawValue)"
            case .pauseReading(let id): "pause \(id.rawValue)"
            case .resumeReading(let id): "resume \(id.rawValue)"
            case .receive(let id, let message): "receive \(id.rawValue) \(message)"
            case .wake(let id, let atNs): "wake \(id.rawValue) at \(atNs / ms)ms"
            case .cancelWake(let id): "cancel wake \(id.rawValue)"
            case .slice(let id, let slicing): "slice \(id.rawValue) \(slicing.map { "\($0.bytes)B/\($0.delayNs / ms)ms" } ?? "off")"
            case .expire(let fault, let atMs): "expire \(fault.rawValue) at \(atMs)"
            case .cancelExpiry(let fault): "cancel expiry \(fault.rawValue)"
            }
        }
    }

    /// Creates a fault over connections 1 and 2; returns its creation's actions.
    func add(
        _ kind: FaultKind, to machine: inout Machine, book: inout FaultBook, durationMs: Int64? = nil,
        trigger: FaultTrigger? = nil, target: FaultTarget? = nil
    ) -> Machine.Creation {
        machine.add(
            kind, target: target ?? .app(app), durationMs: durationMs, probability: 1, seed: 7, trigger: trigger,
            open: [subject(2), subject(1)], book: &book, nowMs: 1_000, nowNs: 0)
    }

    @Test("without faults every item is sent at once and nothing is held")
    func passThrough() {
        var machine = Machine()
        var book = FaultBook()
        #expect(describe(machine.send("a", as: .frame, to: subject(1), book: &book, nowNs: 0)) == ["send 1 a"])
        #expect(machine.lanes.isEmpty)
    }

    @Test("an item passes straight through only while no fault is active and nothing of its connection is held; what passed through still tells a later trigger that an offline sync is under way")
    func passesThroughWithoutFaults() {
        var machine = Machine()
        var book = FaultBook()
        #expect(machine.passesThrough(ConnectionID(1), book: book))
        machine.passedThrough(.offlineStart, on: ConnectionID(1))
        _ = add(.dropFrames(count: 1), to: &machine, book: &book, trigger: .on(.syncPage))
        #expect(!machine.passesThrough(ConnectionID(1), book: book))
        #expect(
            describe(machine.send("m1", as: .message, to: subject(1), book: &book, nowNs: 0)) == ["cancel expiry 1"],
            "m1 is a page of the sync: dropped, and the used-up fault ends")
        #expect(book.isEmpty, "the used-up dropFrames is gone")
        machine.passedThrough(.offlineFinish, on: ConnectionID(1))
        _ = add(.dropFrames(count: 1), to: &machine, book: &book, trigger: .on(.syncPage))
        #expect(describe(machine.send("live", as: .message, to: subject(1), book: &book, nowNs: 0)) == ["send 1 live"])
        _ = add(.delay(ms: 100), to: &machine, book: &book, target: .connection(ConnectionID(2)))
        _ = machine.send("held", as: .frame, to: subject(2), book: &book, nowNs: 0)
        _ = book.removeAll()
        #expect(!machine.passesThrough(ConnectionID(2), book: book), "a held item goes first")
    }

    @Test("a delay holds items in order and asks for one wake-up at the next release; the wake-up sends what is due")
    func delayHoldsAndWakes() {
        var machine = Machine()
        var book = FaultBook()
        let creation = add(.delay(ms: 100), to: &machine, book: &book, durationMs: 5_000)
        #expect(describe(creation.actions) == ["expire 1 at 6000"])
        #expect(creation.affected == [ConnectionID(1), ConnectionID(2)] && creation.active)
        #expect(describe(machine.send("a", as: .frame, to: subject(1), book: &book, nowNs: 0)) == ["wake 1 at 100ms"])
        #expect(describe(machine.send("b", as: .frame, to: subject(1), book: &book, nowNs: 50 * ms)).isEmpty, "the wake-up stands")
        #expect(describe(machine.wake(ConnectionID(1), nowNs: 99 * ms)) == ["wake 1 at 100ms"], "early: armed again")
        #expect(describe(machine.wake(ConnectionID(1), nowNs: 100 * ms)) == ["send 1 a", "wake 1 at 150ms"])
        #expect(describe(machine.wake(ConnectionID(1), nowNs: 150 * ms)) == ["send 1 b"])
        #expect(machine.lanes.isEmpty)
    }

    @Test("clearing a delay lets what it held go at once, unless another hold still holds the connection")
    func clearingADelayReleases() {
        var machine = Machine()
        var book = FaultBook()
        let short = add(.delay(ms: 100), to: &machine, book: &book).fault.id
        let long = add(.delay(ms: 500), to: &machine, book: &book, target: .connection(ConnectionID(2))).fault.id
        _ = machine.send("a", as: .frame, to: subject(1), book: &book, nowNs: 0)
        _ = machine.send("b", as: .frame, to: subject(2), book: &book, nowNs: 0)
        let first = machine.clear(long, book: &book, nowNs: 10 * ms)
        #expect(describe(first?.actions ?? []) == ["cancel expiry 2"], "connection 2 is still held by the first delay")
        let second = machine.clear(short, book: &book, nowNs: 20 * ms)
        #expect(describe(second?.actions ?? []) == ["cancel expiry 1", "send 1 a", "cancel wake 1", "send 2 b", "cancel wake 2"])
        #expect(machine.lanes.isEmpty)
    }

    @Test("a lane releases in send order at each item's time, a later item never overtaking, nothing while black-holed")
    func laneOrder() {
        var lane = FaultLane<String, String>()
        lane.hold("a", holdMs: 100, nowNs: 0)
        lane.hold("b", holdMs: 10, nowNs: 0)
        lane.hold("close", holdMs: 300, nowNs: 0)
        var (due, next) = lane.takeDue(nowNs: 50 * ms)
        #expect(due.isEmpty && next == 100 * ms)
        (due, next) = lane.takeDue(nowNs: 100 * ms)
        #expect(due == ["a", "b"] && next == 300 * ms)
        lane.blackhole = FaultID(rawValue: 1)
        (due, next) = lane.takeDue(nowNs: 400 * ms)
        #expect(due.isEmpty && next == nil)
        lane.blackhole = nil
        (due, _) = lane.takeDue(nowNs: 400 * ms)
        #expect(due == ["close"] && lane.isIdle)
    }

    @Test("holdLogin holds the login answer and what follows it, not what came before")
    func holdLogin() {
        var machine = Machine()
        var book = FaultBook()
        _ = add(.holdLogin(ms: 300), to: &machine, book: &book)
        #expect(describe(machine.send("hello", as: .frame, to: subject(1), book: &book, nowNs: 0)) == ["send 1 hello"])
        #expect(describe(machine.send("login.ok", as: .loginReply, to: subject(1), book: &book, nowNs: 0)) == ["wake 1 at 300ms"])
        #expect(describe(machine.send("next", as: .frame, to: subject(1), book: &book, nowNs: 10 * ms)).isEmpty)
        #expect(describe(machine.wake(ConnectionID(1), nowNs: 300 * ms)) == ["send 1 login.ok", "send 1 next"])
    }

    @Test("drop and reset act on the open connections at once and are not kept; with a duration they also end later frames")
    func dropAndReset() {
        var machine = Machine()
        var book = FaultBook()
        let drop = add(.drop, to: &machine, book: &book)
        #expect(describe(drop.actions) == ["drop 1", "drop 2"] && !drop.active && book.isEmpty)
        let reset = add(.reset, to: &machine, book: &book, durationMs: 100, target: .connection(ConnectionID(2)))
        #expect(describe(reset.actions) == ["expire 2 at 1100", "reset 2"] && reset.active)
        #expect(describe(machine.send("x", as: .frame, to: subject(2), book: &book, nowNs: 0)) == ["reset 2"])
        #expect(describe(machine.send("x", as: .frame, to: subject(1), book: &book, nowNs: 0)) == ["send 1 x"])
    }

    @Test("a black hole pauses reading and holds both ways; clearing it resumes, sends the held items, then hands back what was read")
    func blackhole() {
        var machine = Machine()
        var book = FaultBook()
        let hole = add(.blackhole, to: &machine, book: &book, target: .connection(ConnectionID(1)))
        #expect(describe(hole.actions) == ["pause 1"])
        let held = (machine.holds("ping", on: ConnectionID(1)), machine.holds("ping", on: ConnectionID(2)))
        #expect(held == (true, false))
        #expect(describe(machine.send("pong?", as: .frame, to: subject(1), book: &book, nowNs: 0)).isEmpty)
        let cleared = machine.clear(hole.fault.id, book: &book, nowNs: 0)
        #expect(describe(cleared?.actions ?? []) == ["cancel expiry 1", "resume 1", "send 1 pong?", "receive 1 ping"])
        #expect(machine.lanes.isEmpty && book.isEmpty)
        let again = machine.clear(hole.fault.id, book: &book, nowNs: 0)
        #expect(again == nil)
    }

    @Test("dropFrames discards its frames and reports the used-up fault for its expiry to be disarmed")
    func dropFrames() {
        var machine = Machine()
        var book = FaultBook()
        _ = add(.dropFrames(count: 1), to: &machine, book: &book, durationMs: 1_000)
        #expect(describe(machine.send("a", as: .frame, to: subject(1), book: &book, nowNs: 0)) == ["cancel expiry 1"])
        #expect(describe(machine.send("b", as: .frame, to: subject(1), book: &book, nowNs: 0)) == ["send 1 b"])
    }

    @Test("a closed connection's lane is forgotten and its wake-up disarmed")
    func forget() {
        var machine = Machine()
        var book = FaultBook()
        _ = add(.delay(ms: 100), to: &machine, book: &book)
        _ = machine.send("a", as: .frame, to: subject(1), book: &book, nowNs: 0)
        #expect(describe(machine.forget(ConnectionID(1))) == ["cancel wake 1"])
        #expect(machine.lanes.isEmpty)
        let again = machine.forget(ConnectionID(1))
        #expect(again.isEmpty)
    }

    @Test("jitter adds a seeded draw from 0 to jitterMs to each frame's delay, a later frame never overtaking")
    func jitter() {
        func releases(seed: UInt64) -> [Int64] {
            var machine = Machine()
            var book = FaultBook()
            _ = machine.add(
                .delay(ms: 100, jitterMs: 50), target: .app(app), durationMs: nil, probability: 1, seed: seed, trigger: nil,
                open: [], book: &book, nowMs: 0, nowNs: 0)
            for number in 0..<20 { _ = machine.send("f\(number)", as: .frame, to: subject(1), book: &book, nowNs: 0) }
            return machine.lanes[ConnectionID(1)]?.queue.map(\.releaseNs) ?? []
        }
        let times = releases(seed: 3)
        #expect(times.count == 20 && times == releases(seed: 3), "reproducible")
        #expect(times.allSatisfy { (100 * ms...150 * ms).contains($0) })
        #expect(times == times.sorted() && Set(times).count > 1)
    }

    @Test("limitData drops the connection at the frame that would pass the limit, per direction and per connection")
    func limitData() {
        var machine = Machine()
        var book = FaultBook()
        _ = add(.limitData(bytes: 10, direction: .downstream), to: &machine, book: &book)
        var sent: [String] = []
        for (name, bytes, connection) in [("a", 6, 1), ("b", 4, 1), ("c", 1, 1), ("d", 6, 2)] as [(String, Int, UInt64)] {
            sent += describe(machine.send(name, as: .frame, bytes: bytes, to: subject(connection), book: &book, nowNs: 0))
        }
        #expect(sent == ["send 1 a", "send 1 b", "drop 1", "send 2 d"], "exactly the limit passes")
        let downstreamOnly = machine.receive(bytes: 100, from: subject(2), book: &book)
        #expect(downstreamOnly.isEmpty)
        _ = add(.limitData(bytes: 5, direction: .upstream), to: &machine, book: &book)
        let (first, second) = (machine.receive(bytes: 5, from: subject(2), book: &book), machine.receive(bytes: 1, from: subject(2), book: &book))
        #expect(describe(first).isEmpty && describe(second) == ["drop 2"])
    }

    @Test("a slicer or bandwidth slices a connection's writes from its next item until it is cleared, counting the connection as applied; a bandwidth is slices of a hundredth of a second")
    func slicing() {
        var machine = Machine()
        var book = FaultBook()
        let slicer = add(.slicer(bytes: 3, delayMs: 2), to: &machine, book: &book, target: .connection(ConnectionID(1)))
        #expect(creationActions(slicer).isEmpty && slicer.affected == [ConnectionID(1)])
        #expect(describe(machine.send("a", as: .frame, to: subject(1), book: &book, nowNs: 0)) == ["slice 1 3B/2ms", "send 1 a"])
        #expect(describe(machine.send("b", as: .frame, to: subject(1), book: &book, nowNs: 0)) == ["send 1 b"])
        #expect(describe(machine.send("c", as: .frame, to: subject(2), book: &book, nowNs: 0)) == ["send 2 c"])
        #expect(book.fault(slicer.fault.id)?.applied == 1, "one connection taken, counted once")
        let cleared = machine.clear(slicer.fault.id, book: &book, nowNs: 0)
        #expect(describe(cleared?.actions ?? []) == ["cancel expiry 1", "slice 1 off"])
        #expect(FaultKind.bandwidth(bytesPerSecond: 10_000).slicing == FaultSlicing(bytes: 100, delayNs: 10_000_000))
        #expect(FaultKind.bandwidth(bytesPerSecond: 50).slicing == FaultSlicing(bytes: 1, delayNs: 20_000_000))
    }

    func creationActions(_ creation: Machine.Creation) -> [String] { describe(creation.actions) }

    // MARK: Triggers

    @Test("afterFrames N: the first N frames to each connection pass, the next is the first the fault acts on")
    func afterFrames() {
        var machine = Machine()
        var book = FaultBook()
        let creation = add(.dropFrames(count: 5), to: &machine, book: &book, trigger: .afterFrames(2))
        #expect(creation.actions.isEmpty && creation.active)
        var sent: [String] = []
        for frame in ["a", "b", "c", "d"] {
            sent += describe(machine.send(frame, as: .frame, to: subject(1), book: &book, nowNs: 0))
        }
        #expect(describe(machine.send("close", as: .close, to: subject(2), book: &book, nowNs: 0)) == ["send 2 close"], "a close is no frame")
        sent += describe(machine.send("x", as: .frame, to: subject(2), book: &book, nowNs: 0))
        #expect(sent == ["send 1 a", "send 1 b", "send 2 x"], "counted per connection")
    }

    @Test("a triggered drop does nothing at its creation, drops instead of the triggering frame once, then ends")
    func triggeredDrop() {
        var machine = Machine()
        var book = FaultBook()
        let creation = add(.drop, to: &machine, book: &book, trigger: .on(.loginAnswer))
        #expect(creation.actions.isEmpty && creation.active && creation.affected.count == 2)
        #expect(describe(machine.send("hello", as: .frame, to: subject(1), book: &book, nowNs: 0)) == ["send 1 hello"])
        #expect(describe(machine.send("login.ok", as: .loginReply, to: subject(1), book: &book, nowNs: 0)) == ["cancel expiry 1", "drop 1"])
        #expect(book.isEmpty)
        #expect(describe(machine.send("login.ok", as: .loginReply, to: subject(2), book: &book, nowNs: 0)) == ["send 2 login.ok"])
    }

    @Test("a triggered black hole takes a connection at its trigger, holding the triggering frame")
    func triggeredBlackhole() {
        var machine = Machine()
        var book = FaultBook()
        #expect(add(.blackhole, to: &machine, book: &book, trigger: .on(.push)).actions.isEmpty)
        #expect(describe(machine.send("pong", as: .pong, to: subject(1), book: &book, nowNs: 0)) == ["send 1 pong"])
        #expect(describe(machine.send("m1", as: .message, to: subject(1), book: &book, nowNs: 0)) == ["pause 1"])
        #expect(machine.lanes[ConnectionID(1)]?.queue.map(\.item) == ["m1"])
    }

    @Test("the events of a frame: messages between the offline start and finish are the sync's pages, after it pushes")
    func events() {
        func firstActing(_ event: FaultEvent, frames: [(String, FaultOutgoing)]) -> String? {
            var machine = Machine()
            var book = FaultBook()
            _ = add(.dropFrames(count: 1), to: &machine, book: &book, trigger: .on(event))
            for (name, kind) in frames {
                let actions = describe(machine.send(name, as: kind, to: subject(1), book: &book, nowNs: 0))
                if !actions.contains("send 1 \(name)") { return name }
            }
            return nil
        }
        let imockJSON: [(String, FaultOutgoing)] = [
            ("login.ok", .loginReply), ("offline.start", .offlineStart), ("m1", .message), ("m2", .message),
            ("offline.finish", .offlineFinish), ("live", .message),
        ]
        #expect(firstActing(.loginAnswer, frames: imockJSON) == "login.ok")
        #expect(firstActing(.offlineSync, frames: imockJSON) == "offline.start")
        #expect(firstActing(.syncPage, frames: imockJSON) == "m1")
        #expect(firstActing(.push, frames: imockJSON) == "live")
        let pulled: [(String, FaultOutgoing)] = [("provision", .loginReply), ("notice", .message), ("page", .syncPage)]
        #expect(firstActing(.offlineSync, frames: pulled) == "page")
        #expect(firstActing(.syncPage, frames: pulled) == "page")
        #expect(firstActing(.push, frames: pulled) == "notice")
    }
}
