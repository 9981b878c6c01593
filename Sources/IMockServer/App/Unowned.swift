/// An unowned reference as a value, so a loop-confined object can be captured by a `@Sendable`
/// closure through a `LoopBound` without keeping itself alive.
struct Unowned<Object: AnyObject> {
    unowned let object: Object

    init(_ object: Object) { self.object = object }
}
