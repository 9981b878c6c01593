/// What `imock soak` runs (docs/SOAK.md): for how long, against which server, with how many
/// devices, and the bounds that decide the verdict.
public struct SoakConfiguration: Sendable, Equatable {
    /// Where the load goes.
    public enum Target: Sendable, Equatable {
        /// A server in this process on a virtual clock, sharing the load's event loop; its memory
        /// and descriptors are this process's (`/proc/self`).
        case inProcess
        /// An external `imock serve --clock virtual`, through its REST, WebSocket and control
        /// APIs. `pid`: the process to sample; nil finds the local process listening on the
        /// URL's port (when there is one this user may read).
        case external(url: String, adminSecret: String, pid: Int32?)
        /// An `imock serve --clock virtual --data DIR` child of `executable` (the imock binary),
        /// on a temporary data directory, killed with SIGKILL `crashes` times during the load
        /// and restarted on the same data and port (docs/SOAK.md § Crash and restart).
        case crashRestart(executable: String, crashes: Int)
    }

    /// How long the load runs (the drain that follows takes a few seconds more).
    public var duration: Duration
    /// Seeds every choice of the load (and the in-process server's faults), so a run repeats.
    public var seed: UInt64
    /// Device slots, spread over one app per login policy (at least 16: two users per app).
    public var devices: Int
    /// The server.
    public var target: Target
    /// The verdict fails when resident memory grows more than this from the end of the warm-up
    /// to the end of the load.
    public var maximumMemoryGrowthBytes: Int
    /// How often memory and descriptors are sampled (real time).
    public var sampleInterval: Duration

    /// The defaults: in process, 48 devices, 64 MiB of growth allowed, a sample per second.
    public init(
        duration: Duration, seed: UInt64 = 1, devices: Int = SoakConfiguration.defaultDevices, target: Target = .inProcess,
        maximumMemoryGrowthBytes: Int = SoakConfiguration.defaultMaximumMemoryGrowthBytes,
        sampleInterval: Duration = .seconds(1)
    ) {
        self.duration = duration
        self.seed = seed
        self.devices = devices
        self.target = target
        self.maximumMemoryGrowthBytes = maximumMemoryGrowthBytes
        self.sampleInterval = sampleInterval
    }

    /// 48 device slots.
    public static let defaultDevices = 48
    /// The fewest device slots: two users with one device each in every app.
    public static let minimumDevices = 16
    /// 64 MiB.
    public static let defaultMaximumMemoryGrowthBytes = 64 << 20
}
