#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import IMockNet

/// A blocking TCP client for tests that must control every byte on the wire.
public final class RawSocket {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let fd: Int32

    /// Connects to `host:port`; reads time out after `timeoutSeconds`. `receiveBufferBytes`
    /// shrinks the kernel's receive buffer (set before connecting, so the window stays small):
    /// a client that does not read then backs up the server quickly.
    public init(port: UInt16, host: String = "127.0.0.1", timeoutSeconds: Int = 10, receiveBufferBytes: Int32? = nil) throws {
        let address = try SocketAddress.resolve(host: host, port: port)
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBufferBytes {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let result: Int32
        switch address {
        case .v4(var raw):
            result = withUnsafePointer(to: &raw) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .v6(var raw):
            result = withUnsafePointer(to: &raw) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect to \(host):\(port) failed: errno \(errno)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads what is available (blocking for at least one byte); empty at EOF or on a reset.
    public func receive(max: Int = 65536) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == ECONNRESET { return [] }
            throw Failure(description: "recv failed or timed out: errno \(errno)")
        }
        return Array(buffer[0..<count])
    }

    /// Reads until the peer closes; returns everything received.
    public func receiveUntilClosed() throws -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let chunk = try receive()
            if chunk.isEmpty { return all }
            all += chunk
        }
    }

    /// Reads exactly `count` bytes.
    public func receive(exactly count: Int) throws -> [UInt8] {
        var all: [UInt8] = []
        while all.count < count {
            let chunk = try receive(max: count - all.count)
            guard !chunk.isEmpty else { throw Failure(description: "closed after \(all.count) of \(count) bytes") }
            all += chunk
        }
        return all
    }

    /// Reads one HTTP response with a Content-Length body.
    public func receiveResponse() throws -> (head: HTTPResponseHead, body: [UInt8]) {
        var parser = HTTPResponseHeadParser()
        var chunk = pending
        pending = []
        while true {
            if chunk.isEmpty {
                chunk = try receive()
                guard !chunk.isEmpty else { throw Failure(description: "closed before a response head") }
            }
            defer { chunk = [] }
            if let (head, leftover) = try parser.feed(chunk) {
                let length = Int(head.headers["Content-Length"] ?? "0") ?? 0
                var body = leftover
                if body.count < length { body += try receive(exactly: length - body.count) }
                pending = Array(body[length...])
                return (head, Array(body[..<length]))
            }
        }
    }

    /// Bytes read past the last response (pipelining); tests assert it is empty or use it.
    public private(set) var pending: [UInt8] = []

    /// Half-closes the sending side.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }
}
