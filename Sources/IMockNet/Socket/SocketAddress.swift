#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims

/// An IPv4 or IPv6 socket address.
public enum SocketAddress: Sendable, CustomStringConvertible {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    /// Resolves a numeric address or a host name (`localhost`) with `getaddrinfo`, preferring
    /// the first result. `port` 0 asks the OS to choose when binding.
    public static func resolve(host: String, port: UInt16) throws(SocketAddressError) -> SocketAddress {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw SocketAddressError(host: host, reason: status == 0 ? "no address" : String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if let address = SocketAddress(info.pointee.ai_addr) { return address }
            cursor = info.pointee.ai_next
        }
        throw SocketAddressError(host: host, reason: "no IPv4 or IPv6 address")
    }

    /// Reads an address from a `sockaddr` pointer (nil for other families).
    init?(_ pointer: UnsafePointer<sockaddr>?) {
        guard let pointer else { return nil }
        switch Int32(pointer.pointee.sa_family) {
        case AF_INET:
            self = .v4(UnsafeRawPointer(pointer).load(as: sockaddr_in.self))
        case AF_INET6:
            self = .v6(UnsafeRawPointer(pointer).load(as: sockaddr_in6.self))
        default:
            return nil
        }
    }

    /// Reads an address filled in by `accept`, `getsockname` or `getpeername`.
    init?(storage: sockaddr_storage) {
        var storage = storage
        let address = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0) }
        }
        guard let address else { return nil }
        self = address
    }

    /// The address family (`AF_INET` or `AF_INET6`).
    public var family: Int32 {
        switch self {
        case .v4: AF_INET
        case .v6: AF_INET6
        }
    }

    /// The port in host byte order.
    public var port: UInt16 {
        switch self {
        case .v4(let address): UInt16(bigEndian: address.sin_port)
        case .v6(let address): UInt16(bigEndian: address.sin6_port)
        }
    }

    /// The numeric host, e.g. `127.0.0.1` or `::1`.
    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch self {
        case .v4(var address):
            inet_ntop(AF_INET, &address.sin_addr, &buffer, socklen_t(buffer.count))
        case .v6(var address):
            inet_ntop(AF_INET6, &address.sin6_addr, &buffer, socklen_t(buffer.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the address is on the loopback network (127.0.0.0/8, ::1 or v4-mapped loopback).
    public var isLoopback: Bool {
        switch self {
        case .v4(let address):
            return UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
        case .v6:
            let text = host
            return text == "::1" || text.hasPrefix("::ffff:127.")
        }
    }

    public var description: String {
        switch self {
        case .v4: "\(host):\(port)"
        case .v6: "[\(host)]:\(port)"
        }
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch self {
        case .v4(var address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .v6(var address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }
}

/// A host that could not be resolved to a socket address.
public struct SocketAddressError: Error, Sendable, CustomStringConvertible {
    public var host: String
    public var reason: String
    public var description: String { "cannot resolve host '\(host)': \(reason)" }
}
