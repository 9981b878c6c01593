#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims
import Dispatch
import Synchronization
import Testing
@testable import IMockNet
import IMockTestSupport

@Suite("Event loop")
struct EventLoopTests {
    @Test("timers fire in deadline order, ties in scheduling order; cancelled timers never fire")
    func timerOrder() async throws {
        let loop = try EventLoop()
        let fired = Mutex<[String]>([])
        let done = AsyncStream<Void>.makeStream()
        let base = MonotonicInstant.now() + .milliseconds(30)
        // Scheduled before start: allowed, the loop is not running yet.
        loop.scheduleTimer(at: base + .milliseconds(20)) { fired.withLock { $0.append("c") } }
        loop.scheduleTimer(at: base) { fired.withLock { $0.append("a") } }
        loop.scheduleTimer(at: base) { fired.withLock { $0.append("b") } }
        let cancelled = loop.scheduleTimer(at: base + .milliseconds(10)) { fired.withLock { $0.append("x") } }
        loop.cancelTimer(cancelled)
        loop.scheduleTimer(at: base + .milliseconds(40)) { done.continuation.yield() }
        loop.start()
        for await _ in done.stream { break }
        #expect(fired.withLock { $0 } == ["a", "b", "c"])
        loop.stop()
        await loop.waitUntilStopped()
    }

    /// Holds a connection the listener accepted, for the test's thread to act on through the loop.
    private final class Accepted: ConnectionHandler, @unchecked Sendable {
        var connection: Connection?
        func connectionDidBecomeActive(_ connection: Connection) { self.connection = connection }
        func connection(_ connection: Connection, didReceive bytes: [UInt8]) {}
        func connectionDidClose(_ connection: Connection, error: (any Error)?) {}
    }

    @Test("a task given before stop() runs before the loop closes its sockets, also when the loop was mid-turn, and its output goes out")
    func tasksBeforeStopRunFirst() async throws {
        let loop = try EventLoop()
        let accepted = Accepted()
        let listener = try TCPListener.accepting(on: loop, handler: accepted)
        loop.start()
        let client = try RawSocket(port: listener.address.port)
        #expect(try await happens(within: .seconds(20)) { (try? await loop.submit { accepted.connection != nil }) == true })
        // The loop is in the middle of a turn (this task) when the next task and the stop come:
        // it sees the stop at the end of the turn, before it ran the next task.
        let busy = DispatchSemaphore(value: 0)
        loop.execute {
            busy.signal()
            usleep(200_000)
        }
        busy.wait()
        loop.execute {
            accepted.connection?.write(Array("goodbye".utf8))
            accepted.connection?.close(.afterFlush)
        }
        loop.stop()
        await loop.waitUntilStopped()
        #expect(String(decoding: try client.receiveUntilClosed(), as: UTF8.self) == "goodbye")
        _ = listener
    }

    @Test("execute and submit run on the loop thread from other threads")
    func crossThreadTasks() async throws {
        let loop = try EventLoop()
        loop.start()
        let onLoop = try await loop.submit { loop.inEventLoop }
        #expect(onLoop)
        #expect(!loop.inEventLoop)
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in 1...50 { group.addTask { try await loop.submit { value } } }
            return try await group.reduce(0, +)
        }
        #expect(sum == 1275)
        loop.stop()
        await loop.waitUntilStopped()
    }

    @Test("a descriptor number reused within one batch never gets the old descriptor's event")
    func staleEventsAreDropped() async throws {
        let loop = try EventLoop()
        let log = LogBox()
        let first = cimock_eventfd()
        let second = cimock_eventfd()
        var one: UInt64 = 1
        write(first, &one, 8)
        write(second, &one, 8)
        final class Recorder: IOHandler {
            let name: String
            let log: LogBox
            var action: (() -> Void)?
            var fd: Int32 = -1
            init(_ name: String, _ log: LogBox) { self.name = name; self.log = log }
            func handleIO(_ events: IOEvents) {
                var value: UInt64 = 0
                _ = read(fd, &value, 8)  // level-triggered: drain so it is reported once
                log.entries.withLock { $0.append(name) }
                action?()
                action = nil
            }
        }
        // Whichever of the two runs first closes the other and puts a new, idle eventfd with the
        // same number in its place. The old descriptor's pending event must not reach it.
        let a = Recorder("a", log)
        let b = Recorder("b", log)
        let fresh = Recorder("fresh", log)
        func swap(_ victim: Int32) -> () -> Void {
            {
                loop.deregister(fd: victim)
                // Atomically replace the descriptor behind the old number with a fresh, idle
                // eventfd (closing first would let a concurrent test take the number).
                let created = cimock_eventfd()
                dup2(created, victim)
                close(created)
                let reused = victim
                fresh.fd = reused
                try? loop.register(fd: reused, interest: .read, handler: fresh)
            }
        }
        a.fd = first
        b.fd = second
        a.action = swap(second)
        b.action = swap(first)
        try loop.register(fd: first, interest: .read, handler: a)
        try loop.register(fd: second, interest: .read, handler: b)
        loop.start()
        try await loop.submit {}
        try await loop.submit {}
        let seen = log.entries.withLock { $0 }
        #expect(seen.count == 1, "events seen: \(seen)")
        #expect(!seen.contains("fresh"))
        loop.stop()
        await loop.waitUntilStopped()
        close(first)
        close(second)
    }
}

private final class LogBox: Sendable {
    let entries = Mutex<[String]>([])
}
