/// A bug planted in the client on purpose, for the tests that show a harness finds one
/// (`imock explore`'s own tests, docs/EXPLORE.md). Never set in real use: ``ClientOptions/plantedBug``
/// is nil unless a test sets it.
public enum PlantedBug: Sendable, Equatable {
    /// A kick (or a close `4000 + code`) with this code is taken for a recoverable drop: the
    /// client reconnects by itself, against C9.
    case reconnectAfterKick(code: Int)
}
