import IMockCommon
import IMockCore
import IMockNet

/// The link to an external `imock serve --clock virtual` (`--server URL`): the server's clock
/// moves through the control API (`POST /_imock/clock/advance`), its stops are learnt from the
/// token and fault listings, and the devices' timers are on a timeline of the harness that
/// stands for their clock. A move stands that timeline at the new time first (records carry it),
/// moves the server (its timers fire), and the devices' timers wait for ``fireDeviceTimers()``:
/// at an instant both reach the server acts first (in process, equal deadlines fire in the order
/// they were scheduled instead), and the server sees what a device timer sends at the device's
/// time, not before its clock got there.
final class RemoteLink: ServerLink {
    let loop: EventLoop
    let endpoint: ServerEndpoint
    let adminSecret: String
    let deviceTimeline: Timeline

    /// The link to the server at `endpoint`, whose clock stands at `startMs`.
    init(loop: EventLoop, endpoint: ServerEndpoint, adminSecret: String, startMs: Int64) {
        self.loop = loop
        self.endpoint = endpoint
        self.adminSecret = adminSecret
        self.deviceTimeline = Timeline(mode: .virtual, startMs: startMs)
    }

    /// Each live token's warning (at the configured share of its life, and an msync session's a
    /// heartbeat's delay after it) and expiry, and each fault's end, from the control API's listings.
    func serverStops(after nowMs: Int64, upTo target: Int64, apps: [ServerApp], tokenWarningPercent: Int)
        async throws(ScenarioFailure) -> [Int64]
    {
        var stops: Set<Int64> = []
        for app in apps {
            let listing = try await control("GET", "apps/\(app.path)/tokens?state=live")
            for token in listing["tokens"]?.arrayValue ?? [] {
                guard let issued = token["issuedAtMs"]?.intValue, let expires = token["expiresAtMs"]?.intValue else { continue }
                for delay in [0, LoginRequest.heartbeatWarningDelayMs] {
                    stops.insert(
                        SessionEngine.tokenWarningDeadline(
                            issuedAtMs: issued, expiresAtMs: expires, percent: tokenWarningPercent, delayMs: delay))
                }
                stops.insert(expires)
            }
            let faults = try await control("GET", "faults?app=\(app.query)")
            for fault in faults["faults"]?.arrayValue ?? [] {
                if let ends = fault["expiresAtMs"]?.intValue { stops.insert(ends) }
            }
        }
        return stops.filter { $0 > nowMs && $0 <= target }.sorted()
    }

    func moveClock(to timeMs: Int64) async throws(ScenarioFailure) {
        let from = deviceTimeline.nowMs
        guard timeMs > from else { return }
        do {
            try deviceTimeline.stand(at: timeMs)
        } catch {
            throw .infrastructure("cannot move the devices' clock to \(timeMs): \(error)")
        }
        try await control("POST", "clock/advance", ["ms": .int(timeMs - from)])
    }

    func fireDeviceTimers() async {
        await onLoop { [deviceTimeline] in deviceTimeline.fireDue() }
    }
}
