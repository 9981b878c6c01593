#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Testing
@testable import IMockNet
import IMockTestSupport

/// A connection writes several queued chunks with one `sendmsg`: the peer must still get every
/// byte once, in order, however the socket splits the writes.
@Suite("Gathered writes")
struct GatheredWriteTests {
    private final class Quiet: ConnectionHandler {
        func connection(_ connection: Connection, didReceive bytes: [UInt8]) {}
        func connectionDidClose(_ connection: Connection, error: (any Error)?) {}
    }

    /// A stream socket pair: the first end non-blocking with a small send buffer (so writes are
    /// cut short, mid-chunk too), the second blocking for the test to read.
    private static func socketPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw SystemError("socketpair", code: errno)
        }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var size: Int32 = 4096
        setsockopt(ends[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        return (ends[0], ends[1])
    }

    private static func chunk(_ index: Int) -> [UInt8] {
        (0..<(index * 37 % 3001 + 1)).map { UInt8(truncatingIfNeeded: $0 &+ index) }
    }

    @Test(
        "chunks queued in one turn (more than one write's worth, of every size) reach the peer once each, in order",
        arguments: [1, 2, 63, 64, 65, 2000])
    func everyByteOnceInOrder(chunkCount: Int) async throws {
        let loop = try EventLoop()
        loop.start()
        let (serverEnd, testEnd) = try Self.socketPair()
        defer { close(testEnd) }
        let expected = (0..<chunkCount).flatMap(Self.chunk)
        let connection = LoopBound<Connection?>(nil, on: loop)
        // Queued in one turn, written at its end; the close (after the output) in a later one.
        try await loop.submit {
            let opened = Connection(loop: loop, acceptedFD: serverEnd)
            opened.handler = Quiet()
            try opened.activate()
            for index in 0..<chunkCount { opened.write(Self.chunk(index)) }
            connection.value = opened
        }
        try await loop.submit { connection.value?.close(.afterFlush) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(testEnd, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        #expect(received.count == expected.count)
        #expect(received == expected)
        loop.stop()
        await loop.waitUntilStopped()
    }
}
