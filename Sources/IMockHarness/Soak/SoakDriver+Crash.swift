import IMockCommon
import IMockNet

/// The crash-restart soak (docs/SOAK.md § Crash and restart): the load pauses, the calls under
/// way finish, the server is killed with SIGKILL and started again on the same `--data` and
/// port, and the load goes on. Every connection open at the kill is lossy (the kernel closed
/// it, with a reset when the server had unread input, and a device's kernel drops what it had
/// not handed over); what the server had accepted must all come back from its store.
extension SoakDriver {
    /// How long the load waits for the calls and faults under way before the kill.
    static let crashQuiesceMs: Int64 = 5_000
    /// How long the restarted server has to answer its control API.
    static let restartTimeoutMs: Int64 = 20_000

    func crashAndRestart() {
        guard let serverProcess else { return }
        phase = .crashing
        let since = nowMs
        func killWhenQuiet() {
            guard http.inFlight > 0 || faultsActive > 0, nowMs - since < Self.crashQuiesceMs else {
                for connection in connections.values { markLossy(connection) }
                serverProcess.crash()
                report.crashes += 1
                do {
                    try serverProcess.restart()
                } catch {
                    return fail(error.description)
                }
                return waitForRestart(since: nowMs)
            }
            _ = loop.scheduleTimer(after: .milliseconds(20)) { killWhenQuiet() }
        }
        killWhenQuiet()
    }

    /// Polls the control API until the restarted server answers, then resumes the load.
    private func waitForRestart(since: Int64) {
        http.control("GET", "clock") { [self] answer in
            guard answer.status == 200 else {
                guard nowMs - since < Self.restartTimeoutMs else {
                    return fail("the server did not come back within \(Self.restartTimeoutMs / 1000) s of its restart after a SIGKILL")
                }
                _ = loop.scheduleTimer(after: .milliseconds(50)) { [self] in waitForRestart(since: since) }
                return
            }
            if let pid = serverProcess?.process?.pid {
                probe = ProcessProbe(pid: pid)
                // Descriptors are compared within one process: the restarted one's from now.
                report.filesAtStart = probe?.openDescriptors()
            }
            phase = .running
        }
    }
}
