import CIMockShims

/// Readiness reported by the loop for one descriptor.
public struct IOEvents: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let readable = IOEvents(rawValue: 1 << 0)
    public static let writable = IOEvents(rawValue: 1 << 1)
    /// The peer hung up or the socket failed; a read will report how.
    public static let hangup = IOEvents(rawValue: 1 << 2)
    public static let error = IOEvents(rawValue: 1 << 3)

    init(epollFlags flags: UInt32) {
        var events: IOEvents = []
        if flags & cimock_epollin() != 0 { events.insert(.readable) }
        if flags & cimock_epollout() != 0 { events.insert(.writable) }
        if flags & (cimock_epollhup() | cimock_epollrdhup()) != 0 { events.insert(.hangup) }
        if flags & cimock_epollerr() != 0 { events.insert(.error) }
        self = events
    }
}

/// What a descriptor wants to be woken for.
public struct IOInterest: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let read = IOInterest(rawValue: 1 << 0)
    public static let write = IOInterest(rawValue: 1 << 1)

    /// `EPOLLRDHUP` only with `.read`: a peer's FIN is news for a reader only, and epoll
    /// reports it level-triggered — a connection that stopped reading (a black hole, output
    /// backpressure) whose peer then half-closed made the loop spin at 100 % of a core.
    var epollFlags: UInt32 {
        var flags: UInt32 = 0
        if contains(.read) { flags |= cimock_epollin() | cimock_epollrdhup() }
        if contains(.write) { flags |= cimock_epollout() }
        return flags
    }
}

/// An object the loop calls when its descriptor is ready. Called on the loop thread only.
public protocol IOHandler: AnyObject {
    func handleIO(_ events: IOEvents)
    /// The loop stopped while this handler was still registered (it is already deregistered):
    /// close the descriptor. The default does nothing.
    func loopDidStop()
}

extension IOHandler {
    public func loopDidStop() {}
}
