#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `AF_INET6` as the Int32 `SocketAddress.family` returns.
public let AF_INET6_VALUE = Int32(AF_INET6)
