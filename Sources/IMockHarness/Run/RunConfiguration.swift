/// What one conformance run does: which fixtures, how each runs, how many at once, and which
/// reports it writes. `imock run` builds one from its command line (`Sources/imock/RunOptions.swift`);
/// tests and the benchmarks build one in code.
public struct RunConfiguration: Sendable {
    /// Fixture files and directories.
    public var paths: [String] = []
    /// How each fixture runs.
    public var settings = RunSettings()
    /// Fixtures at once.
    public var jobs = 1
    /// Run only the fixtures any of these match (``FixtureLoader/matches(_:filter:)``); empty: all.
    public var filters: [String] = []
    /// Report files.
    public var junitPath: String?
    public var jsonPath: String?
    public var htmlPath: String?
    /// Print rule id → fixtures, run nothing.
    public var coverage = false
    /// Print the timelines of passing scenarios too.
    public var verbose = false
    /// Record each fixture's first app and write the recordings here (docs/RECORD.md).
    public var recordDirectory: String?

    /// Defaults: no paths, in process, one at a time.
    public init() {}
}
