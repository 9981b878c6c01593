import IMockCommon
import IMockNet
import IMockServer

/// The link to a server in this process, on the scenario's own loop: the devices' timers are on
/// the server's `Timeline`, so a move fires theirs and the server's in one deadline order, and
/// the timeline itself tells where the next one is (the server's token timers, fault ends and
/// idle sweep are on it too). Server, devices and moves share the one loop, so every timer
/// action runs on it, inline, in the order the timeline pops them.
final class InProcessLink: ServerLink {
    let loop: EventLoop
    let endpoint: ServerEndpoint
    let adminSecret: String
    let deviceTimeline: Timeline
    private let server: LoopBound<MockServer>

    /// The link to `server`, which runs on `loop` with `timeline` as its clock.
    init(loop: EventLoop, endpoint: ServerEndpoint, adminSecret: String, timeline: Timeline, server: LoopBound<MockServer>) {
        self.loop = loop
        self.endpoint = endpoint
        self.adminSecret = adminSecret
        self.deviceTimeline = timeline
        self.server = server
    }

    /// None: every moment the server acts is on the timeline.
    func serverStops(after nowMs: Int64, upTo target: Int64, apps: [ServerApp], tokenWarningPercent: Int)
        async throws(ScenarioFailure) -> [Int64]
    {
        []
    }

    /// Moves the server's clock through `MockServer.moveClock` on the loop, as
    /// `POST /_imock/clock/set` would (the jump counts as activity on every connection).
    func moveClock(to timeMs: Int64) async throws(ScenarioFailure) {
        let outcome: Result<Void, VirtualClockError> = await onLoop { [server, deviceTimeline] in
            do throws(VirtualClockError) {
                if timeMs > deviceTimeline.nowMs {
                    try server.value.moveClock(to: timeMs) { () throws(VirtualClockError) in try deviceTimeline.set(to: timeMs) }
                } else {
                    deviceTimeline.fireDue()
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = outcome { throw .infrastructure("cannot move the server's clock to \(timeMs): \(error)") }
    }

    func fireDeviceTimers() async {}
}
