#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims
import IMockNet

/// A loopback port where a connect is refused for as long as this value lives: a TCP socket
/// bound to it that never listens. A port freed by a stopped server would not do: the OS may
/// hand it to a server another test starts meanwhile, and the client then reaches that one.
public final class RefusingPort {
    /// The refused port.
    public let port: UInt16
    private let fd: Int32

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RawSocket.Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw RawSocket.Failure(description: "bind to 127.0.0.1:0 failed: errno \(errno)")
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }
}
