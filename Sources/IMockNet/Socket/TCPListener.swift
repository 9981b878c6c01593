#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims

/// A listening TCP socket on an event loop that hands each accepted descriptor to `onAccept`.
///
/// Accept errors never stop it: when the process or system runs out of descriptors (`EMFILE`,
/// `ENFILE`) or memory, it stops accepting for a back-off that doubles from 10 ms up to 1 s and
/// then resumes; a connection aborted before it was accepted is skipped.
public final class TCPListener: IOHandler {
    /// The address the socket is bound to (with the OS-chosen port when 0 was asked for).
    public let address: SocketAddress
    private let loop: EventLoop
    private let fd: Int32
    private let onAccept: (Int32, SocketAddress?) -> Void
    private var backoff: Duration = .zero
    private var isClosed = false
    /// Accepted per readiness event at most, so one busy listener cannot starve the loop.
    static let maxAcceptsPerWake = 256
    static let backlog: Int32 = 4096

    /// Binds and listens on `address`, registering with `loop` (call on the loop thread or
    /// before the loop runs). `onAccept` owns the accepted, non-blocking descriptor.
    public init(
        loop: EventLoop, address: SocketAddress, onAccept: @escaping (Int32, SocketAddress?) -> Void
    ) throws(SystemError) {
        let fd = try Socket.makeTCP(family: address.family)
        Socket.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
        do {
            _ = try syscallChecked("bind") { address.withSockAddr { bind(fd, $0, $1) } }
            _ = try syscallChecked("listen") { listen(fd, TCPListener.backlog) }
        } catch {
            Glibc.close(fd)
            throw error
        }
        self.loop = loop
        self.fd = fd
        self.address = Socket.localAddress(fd) ?? address
        self.onAccept = onAccept
        try loop.register(fd: fd, interest: .read, handler: self)
    }

    /// Stops listening and closes the socket.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.deregister(fd: fd)
        Glibc.close(fd)
    }

    public func loopDidStop() {
        close()
    }

    public func handleIO(_ events: IOEvents) {
        for _ in 0..<TCPListener.maxAcceptsPerWake {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let result = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { cimock_accept4(fd, $0, &length) }
            }
            if result >= 0 {
                backoff = .zero
                onAccept(result, SocketAddress(storage: storage))
                continue
            }
            switch cimock_errno() {
            case EINTR, ECONNABORTED, EPROTO, EPERM:
                continue
            case EAGAIN, EWOULDBLOCK:
                return
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                pauseAccepting()
                return
            default:
                pauseAccepting()
                return
            }
        }
    }

    private func pauseAccepting() {
        backoff = backoff == .zero ? .milliseconds(10) : min(backoff * 2, .seconds(1))
        try? loop.setInterest(fd: fd, [])
        loop.scheduleTimer(after: backoff) { [weak self] in
            guard let self, !self.isClosed else { return }
            try? self.loop.setInterest(fd: self.fd, .read)
        }
    }
}
