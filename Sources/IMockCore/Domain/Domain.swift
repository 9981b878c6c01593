/// Everything the server knows, as one value: the stored side (apps, users, tokens in the
/// ``Directory``), the live side (the ``SessionEngine``), the active faults, the REST rate
/// limiter, the named checkpoints and the state every app started with. Commands go in — a
/// REST change, a control-API call, a device's command — with the clock's `now`, and the
/// outputs for live sessions come out for the shell to carry out (docs/ARCHITECTURE.md).
///
/// No I/O and no clock of its own: the shells (the server's loop, a test) own one `Domain` and
/// pass `nowMs` in.
public struct Domain: Sendable {
    /// Apps, users and tokens.
    public var directory: Directory
    /// Live sessions, offline queues, token timers.
    public var engine: SessionEngine
    /// Active faults (the control API's network and server-behaviour faults).
    public var faults: FaultBook
    /// Per-app request counters for the REST rate limit; not part of stored state.
    public var rateLimiter: RateLimiter
    /// Named per-app checkpoints (control API), in memory until the server stops (and in the
    /// store with `--data`).
    public internal(set) var checkpoints: [AppKey: [String: SeedApp]] = [:]
    /// The state each app started with (from `--seed`/`--app`), for reset.
    public let startSeed: SeedDocument
    /// Checkpoints saved since the server last took the changes (see ``takeDurableChanges()``).
    var changeLog = DurableChangeLog()

    /// A domain over `directory`, whose current state is also its start state unless
    /// `startSeed` is given (a restarted server's, from its store), with `checkpoints` saved
    /// before (also from a store).
    public init(
        directory: Directory, engine: SessionEngine = SessionEngine(), faults: FaultBook = FaultBook(),
        rateLimiter: RateLimiter = RateLimiter(), startSeed: SeedDocument? = nil,
        checkpoints: [AppKey: [String: SeedApp]] = [:]
    ) {
        self.directory = directory
        self.engine = engine
        self.faults = faults
        self.rateLimiter = rateLimiter
        self.startSeed = startSeed ?? SeedDocument.export(directory)
        self.checkpoints = checkpoints
    }

    /// Starts recording every ``DurableChange`` (the directory's, the engine's and the
    /// checkpoints), for a server that stores them.
    public mutating func startRecordingChanges() {
        directory.changeLog.startRecording()
        engine.changeLog.startRecording()
        changeLog.startRecording()
    }

    /// Whether ``startRecordingChanges()`` was called.
    public var isRecordingChanges: Bool { changeLog.isRecording }

    /// Every change recorded since the last call: the directory's, then the engine's, then the
    /// checkpoints' (each in the order they happened). A store reads the directory's current
    /// state for the directory's changes and applies the engine's in order, so the grouping
    /// loses nothing.
    public mutating func takeDurableChanges() -> [DurableChange] {
        directory.changeLog.take() + engine.changeLog.take() + changeLog.take()
    }
}

/// Why a control-API command on the domain was refused.
public enum DomainError: Error, Sendable, Equatable {
    /// No app with this key.
    case noSuchApp(AppKey)
    /// No user with this name in the app.
    case noSuchUser(String, AppKey)
    /// The user has no live session (with this resource, when given).
    case noLiveSession(user: String, resource: String?, app: AppKey)
    /// The app was not there at start-up, so it has no start state.
    case noStartState(AppKey)
    /// No checkpoint with this name for the app.
    case noCheckpoint(String, AppKey)
    /// A settings change that the directory refuses.
    case invalidSettings(String)
    /// A stored state that could not be loaded again (a seed, a checkpoint, the start state).
    case unloadableState(SeedError)
}
