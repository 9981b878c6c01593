import IMockCore
import Synchronization

/// The clock of the scenario's virtual-clock devices, moved by ``ScenarioTime`` in step with
/// the server's virtual clock (their records carry its time).
final class ScenarioClock: Clock {
    private let time: Mutex<Int64>

    init(startMs: Int64) { time = Mutex(startMs) }

    var nowMs: Int64 { time.withLock { $0 } }

    func set(_ timeMs: Int64) { time.withLock { $0 = timeMs } }
}
