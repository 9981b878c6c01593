/// A value that belongs to one event loop's thread: every access checks that it is made on that
/// thread (or before the loop started). It replaces `@unchecked Sendable` on loop-confined
/// state: the type may travel between threads, the value may not be touched off its loop.
public final class LoopBound<Value>: @unchecked Sendable {
    /// The loop that owns the value.
    public let loop: EventLoop
    @usableFromInline var stored: Value

    /// Binds `value` to `loop`.
    public init(_ value: Value, on loop: EventLoop) {
        self.loop = loop
        self.stored = value
    }

    /// The value; reading or changing it off the loop's thread is a programming error and traps.
    public var value: Value {
        // `_read` lends the stored value: reading one field (`domain.value.faults.isEmpty`)
        // no longer copies, retains and releases the whole value, as a `get` did. Inlinable,
        // so that callers in other modules specialize it: unspecialized, a call of a method on
        // the lent value (`domain.value.faultSubject(of:)`) copied the whole value first.
        // Specialized, such a call still copies when the optimizer cannot see into the method:
        // ask it through `withValue(_:)`.
        @inlinable _read {
            precondition(loop.isCallerAllowed, "LoopBound<\(Value.self)> read off its event loop")
            yield stored
        }
        @inlinable _modify {
            precondition(loop.isCallerAllowed, "LoopBound<\(Value.self)> changed off its event loop")
            yield &stored
        }
    }

    /// `body`'s answer about the value, lent to it as an exclusive (`inout`) access.
    ///
    /// Use it to ask a non-mutating method of another module that the optimizer cannot see
    /// through (`domain.withValue { $0.engine.heldBytes(of: id) }`). Read through ``value``,
    /// such a call copies the whole value first (retaining everything it holds): the callee
    /// might reach this object and change `stored` while it runs. An `inout` access rules that
    /// out, so the callee is handed the value in place.
    @inlinable public func withValue<Result>(_ body: (inout Value) -> Result) -> Result {
        precondition(loop.isCallerAllowed, "LoopBound<\(Value.self)> read off its event loop")
        return body(&stored)
    }
}
