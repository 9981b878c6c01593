import IMockClient
import IMockCommon

/// How fixtures are run: the server, seeds, bounds and adapters.
public struct RunSettings: Sendable {
    /// In process (default) or an external server.
    public var target: ServerTarget = .inProcess
    /// `--seed-random`: the server's randomness, the devices' reconnect jitter and what the
    /// harness draws itself (the run id, admin and app secrets), so a seeded run repeats.
    public var seedRandom: UInt64?
    /// The real-time bound of one step's waits.
    public var stepTimeout: Duration = .seconds(10)
    /// How long a real-time adapter is waited for when an expectation needs a callback (`within`).
    public var realTimeCap: Duration = .seconds(5)
    /// How long `absent … for` listens to a real-time adapter after the clock moved (it has
    /// settled by then; this catches what its own timers would add).
    public var realTimeQuiet: Duration = .milliseconds(200)
    /// The server's `--token-warning-percent` (in process: set to this).
    public var tokenWarningPercent = 80
    /// `--app-key org#app`: the fixtures' first app is this app of the server instead of one of
    /// their own (on an external server it must exist; it is put back as it was after each fixture).
    public var appKey: String?
    /// `--hello-timeout`: how long a silent adapter is waited for at its start (an interpreter
    /// or a browser can take many seconds on a loaded CI machine); paid once a run.
    public var helloTimeout: Duration = .seconds(30)
    /// External adapters by name: the command line that starts each.
    public var adapters: [String: [String]] = [:]
    /// Drive every device through this adapter instead of the fixture's choice.
    public var adapterOverride: String?
    /// `--transport`: the wire dialect of the reference clients whose platform it serves (the
    /// others speak the imock protocol).
    public var transport: ClientTransport = .imockJSON
    /// When set, each fixture's first app is recorded (docs/RECORD.md) and its recording left here.
    public var recordings: RecordingSink?
    /// A bug planted in the reference clients, for the tests that show `imock explore` finds
    /// one; nil in real runs.
    public var plantedClientBug: PlantedBug?
    /// Distinguishes this run's apps on a shared server: drawn from ``seedRandom`` when there is
    /// one (a seeded run repeats its app names), else from the system's generator.
    public var runID: String { seedRandom.map { Self.runID(seed: $0) } ?? unseededRunID }
    private let unseededRunID = String(UInt32(truncatingIfNeeded: RandomSource.secure.next()), radix: 36)

    /// Default settings.
    public init() {}

    /// What the harness draws for the `index`-th fixture of the run (the in-process server's
    /// admin secret, the apps' client secrets): a stream of its own seeded from ``seedRandom``,
    /// so fixtures run at once draw the same values whatever their order; without a seed, the
    /// system's secure generator.
    public func random(forFixture index: Int) -> RandomSource {
        Self.random(seed: seedRandom, forFixture: index)
    }

    /// ``random(forFixture:)`` of a run seeded with `seed`.
    static func random(seed: UInt64?, forFixture index: Int) -> RandomSource {
        guard let seed else { return .secure }
        return RandomSource(seed: derive(seed, stream: 1 &+ UInt64(index)))
    }

    private static func runID(seed: UInt64) -> String {
        String(UInt32(truncatingIfNeeded: derive(seed, stream: 0)), radix: 36)
    }

    /// The seed of one of the harness's streams: SplitMix64 over the run's seed and the stream's
    /// number, so neighbouring seeds and streams give unrelated values (and none of them the
    /// server's own stream, which starts from the run's seed itself).
    private static func derive(_ seed: UInt64, stream: UInt64) -> UInt64 {
        var mixer = SplitMix64(seed: (seed ^ 0x6861_726E_6573_7300) &+ (stream &* 0x9E37_79B9_7F4A_7C15))
        return mixer.next()
    }
}
