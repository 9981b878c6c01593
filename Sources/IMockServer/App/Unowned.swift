/// An unowned reference as a value, so a loop-confined object can be captured by a `@Sendable`
/// closure through a `LoopBound` without keeping itself alive.
struct Unowned<Object: AnyObject> {
    unowned let object: Object

    init(_ object: Object) { self.object = object }
}

/// A weak reference as a value, for work that finishes later on the loop and must not keep its
/// object alive (nor touch it once it is gone).
struct WeakReference<Object: AnyObject> {
    weak var object: Object?

    init(_ object: Object) { self.object = object }
}
