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
}
