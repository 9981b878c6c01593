/// A test fixture could not set something up (a registration or a login failed): thrown, so
/// the one test fails with the reason instead of the whole test process stopping.
public struct FixtureFailure: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}
