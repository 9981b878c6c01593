import IMockClient

/// How fixtures are run: the server, seeds, bounds and adapters.
public struct RunSettings: Sendable {
    /// In process (default) or an external server.
    public var target: ServerTarget = .inProcess
    /// `--seed-random`: the server's fault randomness and the devices' reconnect jitter.
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
    /// External adapters by name: the command line that starts each.
    public var adapters: [String: [String]] = [:]
    /// Drive every device through this adapter instead of the fixture's choice.
    public var adapterOverride: String?
    /// `--transport`: the wire dialect of the reference clients whose platform it serves (the
    /// others speak the imock protocol).
    public var transport: ClientTransport = .imockJSON
    /// Distinguishes this run's apps on a shared server.
    public var runID = String(UInt32.random(in: 0...UInt32.max), radix: 36)

    /// Default settings.
    public init() {}
}
