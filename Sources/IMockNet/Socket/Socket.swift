#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims

/// Thin, non-blocking wrappers over the socket system calls imock uses.
enum Socket {
    /// A new non-blocking, close-on-exec TCP socket.
    static func makeTCP(family: Int32) throws(SystemError) -> Int32 {
        try syscallChecked("socket") { cimock_socket(family, Int32(SOCK_STREAM.rawValue)) }
    }

    static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) {
        _ = cimock_set_int_option(fd, level, name, value)
    }

    /// Reads at most `buffer.count` bytes; `.done(0)` means the peer closed its side.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        try syscall("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes what the socket accepts now, never raising SIGPIPE.
    static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        try syscall("send") { Glibc.send(fd, buffer.baseAddress, buffer.count, cimock_msg_nosignal()) }
    }

    /// Writes what the socket accepts now of `chunks` in order, the first from `firstOffset`, in
    /// one system call (`sendmsg` with one `iovec` per chunk), never raising SIGPIPE. A peer so
    /// gets a kick frame and its close in one segment, not two. Empty chunks are skipped.
    static func send(_ fd: Int32, _ chunks: ArraySlice<[UInt8]>, firstOffset: Int) throws(SystemError) -> IOResult<Int> {
        var vectors: [iovec] = []
        vectors.reserveCapacity(chunks.count)
        // Each chunk's storage is pinned by a nested withUnsafeBytes until the call returns.
        func gather(_ index: Int) -> Int {
            guard index < chunks.endIndex else {
                return vectors.withUnsafeMutableBufferPointer { buffer in
                    var message = msghdr()
                    message.msg_iov = buffer.baseAddress
                    message.msg_iovlen = buffer.count
                    return Glibc.sendmsg(fd, &message, cimock_msg_nosignal())
                }
            }
            return chunks[index].withUnsafeBytes { bytes in
                let offset = index == chunks.startIndex ? firstOffset : 0
                if bytes.count > offset, let base = bytes.baseAddress {
                    vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: base + offset), iov_len: bytes.count - offset))
                }
                return gather(index + 1)
            }
        }
        return try syscall("sendmsg") {
            vectors.removeAll(keepingCapacity: true)  // a retry after EINTR gathers anew
            return gather(chunks.startIndex)
        }
    }

    /// The local address a socket is bound to.
    static func localAddress(_ fd: Int32) -> SocketAddress? {
        address(of: fd, getsockname)
    }

    /// The address of a connected socket's peer.
    static func peerAddress(_ fd: Int32) -> SocketAddress? {
        address(of: fd, getpeername)
    }

    private static func address(
        of fd: Int32, _ call: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(fd, $0, &length) }
        }
        return result == 0 ? SocketAddress(storage: storage) : nil
    }

    /// The pending error of a socket (`SO_ERROR`), e.g. after a non-blocking connect.
    static func pendingError(_ fd: Int32) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length)
        return value
    }
}
