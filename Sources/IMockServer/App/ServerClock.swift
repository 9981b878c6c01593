import IMockCore

/// The server's one clock, shared by the REST layer, the session engine and the control API.
///
/// A reference so that every reader sees moves made through the control API. Confined to the
/// loop thread like the rest of the server's state (hence `@unchecked Sendable`).
public final class ServerClock: Clock, @unchecked Sendable {
    /// How the clock starts: following the wall clock, or frozen until moved (`--clock virtual`).
    public enum Mode: String, Sendable, CaseIterable {
        case system
        case virtual
    }

    public private(set) var state: ControllableClock

    public init(mode: Mode, base: any Clock = SystemClock()) {
        state = ControllableClock(base: base, frozen: mode == .virtual)
    }

    public var nowMs: Int64 { state.nowMs }
    public var isFrozen: Bool { state.isFrozen }

    public func advance(by deltaMs: Int64) throws(VirtualClockError) { try state.advance(by: deltaMs) }
    public func set(to timeMs: Int64) throws(VirtualClockError) { try state.set(to: timeMs) }
    public func freeze() { state.freeze() }
    public func resume() { state.resume() }
}
