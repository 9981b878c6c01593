import Synchronization
import Testing
@testable import IMockNet
import IMockTestSupport

/// A connection that stopped reading (a black-holed device, output backpressure) and whose peer
/// then closed: the loop must sleep, not spin on the peer's FIN. A server soaked with black
/// holes, whose devices went away, ran at 100 % of a core for an hour in `epoll_wait`.
@Suite("A paused connection whose peer closed")
struct PausedReadingTests {
    @Test("only a reading interest asks epoll for the peer's half-close")
    func interestFlags() {
        #expect(IOInterest([]).epollFlags == 0)
        // Reading asks for input and the half-close (two flags); writing for neither of them.
        #expect(IOInterest.read.epollFlags.nonzeroBitCount == 2)
        #expect(IOInterest.write.epollFlags & IOInterest.read.epollFlags == 0)
    }

    /// Pauses reading, then asks the server to answer and close (`Connection: close`).
    private final class PausedClient: ConnectionHandler, @unchecked Sendable {
        func connectionDidBecomeActive(_ connection: Connection) {
            connection.pauseReading()
            connection.write(Array("GET /x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8))
        }
        func connection(_ connection: Connection, didReceive bytes: [UInt8]) {}
        func connectionDidClose(_ connection: Connection, error: (any Error)?) {}
    }

    @Test("the loop does not turn over and over while the closed peer's FIN waits behind paused reading")
    func loopSleeps() async throws {
        let server = try LoopbackServer.echo()
        let loop = try EventLoop()
        let turns = Atomic<Int>(0)
        loop.onTurnEnd { turns.add(1, ordering: .relaxed) }
        loop.start()
        let client = PausedClient()
        let address = server.address
        try await loop.submit { _ = try Connection.connect(loop: loop, to: address, handler: client) { _ in } }
        // The answer and the FIN arrive at once on loopback; give them time to land, then count.
        // The server lingers up to `Connection.lingerTime` for the paused client's EOF.
        let open = try await server.connectionCount(settlingAt: 0)
        #expect(open == 0, "the server answered and closed (\(open) still open)")
        try await Task.sleep(for: .milliseconds(100))
        let before = turns.load(ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(500))
        let spun = turns.load(ordering: .relaxed) - before
        // Spinning, the loop turned thousands of times in half a second (24,000 a second idle).
        #expect(spun < 100, "\(spun) loop turns in 500 ms with nothing to do")
        loop.stop()
        await server.stop()
    }

    /// Resets every connection it accepts as soon as the peer sends anything.
    private final class ResettingPeer: ConnectionHandler, @unchecked Sendable {
        var accepted: [Connection] = []
        func connectionDidBecomeActive(_ connection: Connection) { accepted.append(connection) }
        func connection(_ connection: Connection, didReceive bytes: [UInt8]) { connection.close(.reset) }
        func connectionDidClose(_ connection: Connection, error: (any Error)?) {}
    }

    /// Pauses reading, sends a byte, and reports its close.
    private final class PausedSender: ConnectionHandler, @unchecked Sendable {
        let closed: @Sendable () -> Void
        init(closed: @escaping @Sendable () -> Void) { self.closed = closed }
        func connectionDidBecomeActive(_ connection: Connection) {
            connection.pauseReading()
            connection.write([0x2A])
        }
        func connection(_ connection: Connection, didReceive bytes: [UInt8]) {}
        func connectionDidClose(_ connection: Connection, error: (any Error)?) { closed() }
    }

    @Test("a paused connection whose peer resets it closes at once (EPOLLERR/EPOLLHUP come whatever the interest)")
    func resetClosesAPausedConnection() async throws {
        let loop = try EventLoop()
        let peer = ResettingPeer()
        let listener = try TCPListener.accepting(on: loop, handler: peer)
        let turns = Atomic<Int>(0)
        loop.onTurnEnd { turns.add(1, ordering: .relaxed) }
        loop.start()
        let (closes, closed) = AsyncStream<Void>.makeStream()
        let client = PausedSender { closed.yield() }
        let address = listener.address
        try await loop.submit { _ = try Connection.connect(loop: loop, to: address, handler: client) { _ in } }
        // Before the fix the reset waited behind the paused reading for ever, the loop spinning.
        let noticed = await happens(within: .seconds(10)) {
            var iterator = closes.makeAsyncIterator()
            return await iterator.next() != nil
        }
        #expect(noticed, "the reset was not noticed within 10 s of real time")
        let before = turns.load(ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(200))
        #expect(turns.load(ordering: .relaxed) - before < 100, "the loop went on turning after the close")
        loop.stop()
        _ = listener
    }
}

