import IMockCore

/// The idle timeout's decision, pure: which connections have been silent for their timeout
/// and when to look again — the next deadline, but not sooner than `granularityMs` from now (a
/// close may come that much late; one timer for every connection instead of one each).
enum IdleSweep {
    struct Silence {
        let id: ConnectionID
        let lastActivityMs: Int64
        let timeoutMs: Int64
    }

    static func due(_ connections: some Sequence<Silence>, nowMs: Int64, granularityMs: Int64) -> (close: [ConnectionID], nextMs: Int64?) {
        var close: [ConnectionID] = []
        var next = Int64.max
        for connection in connections {
            let deadline = connection.lastActivityMs + connection.timeoutMs
            if deadline <= nowMs { close.append(connection.id) } else { next = min(next, deadline) }
        }
        return (close.sorted(), next == .max ? nil : max(next, nowMs + granularityMs))
    }

    /// How far the server's clock moved beyond the real time that passed since the last sweep,
    /// when that is more than `granularityMs`; else 0. A wall clock stepped forward (a VM's
    /// clock corrected after a pause, NTP) is not silence: counted as such, one step of 40 s closed
    /// every connection as idle at once. Virtual jumps are counted already (``SessionHub/clockWillJump(to:)``).
    static func clockStepMs(clockDeltaMs: Int64, realDeltaMs: Int64, granularityMs: Int64) -> Int64 {
        let step = clockDeltaMs - realDeltaMs
        return step > granularityMs ? step : 0
    }
}
