/// A recorded device's reconnects that failed in a row: an automatic login whose connection
/// ended as it began (a network fault dropped it). A device whose last connection was such a
/// failure and that tried no more although the recording went on longer than its last wait gave
/// up: its SDK's `maxAttempts` was that many (Z2).
struct ReconnectAttempts {
    private var failed: [String: Int] = [:]
    private var lastAutomatic: [String: (connection: Int64, atMs: Int64)] = [:]
    private var lastEnd: [String: (connection: Int64, atMs: Int64)] = [:]
    private var latest: [String: Int64] = [:]

    /// `device` logged in on `connection`.
    mutating func login(_ device: String, on connection: Int64, atMs: Int64, automatic: Bool) {
        latest[device] = connection
        if automatic {
            lastAutomatic[device] = (connection, atMs)
        } else {
            lastAutomatic[device] = nil
            failed[device] = 0
        }
    }

    /// `device`'s `connection` ended.
    mutating func ended(_ connection: Int64, of device: String, atMs: Int64) {
        lastEnd[device] = (connection, atMs)
        if let attempt = lastAutomatic[device], attempt.connection == connection, attempt.atMs == atMs {
            failed[device, default: 0] += 1
        } else {
            failed[device] = 0
        }
    }

    /// How many attempts `device` made before it gave up, if it did.
    func gaveUp(_ device: String, endMs: Int64, lastWaitMs: Int64) -> Int? {
        guard let count = failed[device], count > 0, let end = lastEnd[device], end.connection == latest[device],
            endMs - end.atMs > lastWaitMs
        else { return nil }
        return count
    }
}
