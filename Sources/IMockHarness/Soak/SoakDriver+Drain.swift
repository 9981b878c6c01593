import IMockCommon
import IMockCore
import IMockNet

/// The end of a soak: no new load, faults cleared, every device logs out, the server's
/// sessions settle, then every user logs in once more, takes and acks its offline queue, and
/// once again to see it empty. Only then is a message that never arrived lost.
extension SoakDriver {
    /// How long each drain step may wait (real time) before it gives up and says so.
    static let drainStepLimitMs: Int64 = 15_000

    func beginDrain() {
        phase = .draining
        drainStartMs = nowMs
        waitFor("the load's calls and faults to end", { [self] in http.inFlight == 0 && faultsActive == 0 }) { [self] in
            clearFaults()
        }
    }

    /// Polls `condition` every 20 ms; runs `next` when it holds, or after the step limit with
    /// an anomaly naming what did not happen.
    func waitFor(_ what: String, _ condition: @escaping () -> Bool, since: Int64? = nil, then next: @escaping () -> Void) {
        let start = since ?? nowMs
        if condition() { return next() }
        if nowMs - start > Self.drainStepLimitMs {
            anomaly("the drain gave up waiting for \(what)")
            return next()
        }
        _ = loop.scheduleTimer(after: .milliseconds(20)) { [self] in waitFor(what, condition, since: start, then: next) }
    }

    private func clearFaults() {
        var answers = 0
        for app in plan.apps {
            http.control("DELETE", "faults?app=\(app.key.replacing("#", with: "%23"))") { [self] answer in
                expect(answer, [200], "clearing the faults")
                answers += 1
                if answers == plan.apps.count { logOutEveryone() }
            }
        }
        destructiveFaults = [:]
    }

    /// Every device logs out (those still logging in once they are in); stragglers are dropped.
    private func logOutEveryone() {
        func stillOpen() -> Bool {
            for connection in connections.values where connection.phase == .live && connection.announcedEnd == nil
                && !connection.pending.values.contains(where: { if case .logout = $0.request { true } else { false } })
            {
                connection.send({ #"{"op":"logout","id":"\#($0)","unbindDeviceToken":false}"# }, as: .logout, atMs: nowMs)
            }
            return !connections.isEmpty
        }
        waitFor("every device to log out", { !stillOpen() }) { [self] in
            for connection in connections.values {
                markLossy(connection)
                connection.abort(reset: false)
            }
            waitFor("the server to drop every session", { [self] in unsettled.isEmpty && reaping.isEmpty }) { [self] in
                checkNoSessionLeft(round: 0)
            }
        }
    }

    /// The server must hold no session of the soak's apps before the drain logins (one left
    /// behind would take live messages … and none are sent now; it would still be kicked by the
    /// drain's login under some policies). Leftovers are kicked.
    private func checkNoSessionLeft(round: Int) {
        var answers = 0
        var left = 0
        for app in plan.apps {
            http.control("GET", "apps/\(app.path)/sessions") { [self] answer in
                answers += 1
                let sessions = answer.body["sessions"]?.arrayValue ?? []
                for session in sessions {
                    guard let user = session["user"]?.stringValue, let resource = session["resource"]?.stringValue else { continue }
                    left += 1
                    http.control("POST", "apps/\(app.path)/kick", body: #"{"user":"\#(user)","resource":"\#(resource)","code":1,"reason":"soak drain"}"#) {
                        [self] answer in expect(answer, [200, 404], "kicking a leftover session")
                    }
                }
                guard answers == plan.apps.count else { return }
                if left > 0, round < 3 {
                    anomaly("\(left) sessions left on the server after every device logged out")
                    waitFor("the leftover kicks", { [self] in http.inFlight == 0 }) { [self] in checkNoSessionLeft(round: round + 1) }
                } else {
                    drainPass(1)
                }
            }
        }
    }

    // MARK: Drain logins

    /// Pass 1 takes every offline queue; pass 2 sees them empty.
    private func drainPass(_ pass: Int) {
        guard pass <= 2 else { return settleFiles() }
        var fetched = 0
        for user in plan.users.indices {
            userTokens[user] = nil
            fetchToken(for: user) { [self] token in
                fetched += 1
                if let token { connect(slot: plan.slots.count + user, token: token, draining: true, autoLogin: false) }
                guard fetched == plan.users.count else { return }
                waitFor("the drain's logins (pass \(pass))", { [self] in connections.isEmpty && http.inFlight == 0 }) { [self] in
                    drainPass(pass + 1)
                }
            }
        }
    }

    /// Logged in: a device list, whose answer comes after the whole offline sync.
    func drainLoggedIn(_ connection: SoakConnection) {
        connection.send({ #"{"op":"devices","id":"\#($0)"}"# }, as: .devices, atMs: nowMs)
    }

    /// The offline sync is over and its acks are sent: log out (the acks are answered first).
    func drainSynced(_ connection: SoakConnection) {
        connection.send({ #"{"op":"logout","id":"\#($0)","unbindDeviceToken":false}"# }, as: .logout, atMs: nowMs)
    }

    /// After the drain the descriptors settle back (sockets close on both ends, within a few
    /// seconds at most); then the report, whose verdict judges the count.
    private func settleFiles(since: Int64? = nil) {
        guard let probe, let start = report.filesAtStart else { return complete() }
        let since = since ?? nowMs
        report.filesAtEnd = probe.openDescriptors()
        guard (report.filesAtEnd ?? .max) <= start + SoakReport.fileTolerance || nowMs - since > 5_000 else {
            _ = loop.scheduleTimer(after: .milliseconds(50)) { [self] in settleFiles(since: since) }
            return
        }
        sample()
        complete()
    }

    // MARK: Reaping

    /// Lists the sessions of the apps with ended lossy connections: one the server no longer
    /// holds is settled (the ledger closes its window); one it still holds after five lists and
    /// no destructive fault on its user is kicked, and settled once the kick is answered.
    func reap() {
        guard phase != .crashing else { return }  // the server is down for a moment
        var byApp: [Int: [Int]] = [:]
        for (serial, entry) in unsettled { byApp[plan.users[entry.user].app, default: []].append(serial) }
        for (app, serials) in byApp where !reaping.contains(app) {
            reaping.insert(app)
            http.control("GET", "apps/\(plan.apps[app].path)/sessions") { [self] answer in
                reaping.remove(app)
                guard answer.status == 200, let sessions = answer.body["sessions"]?.arrayValue else {
                    return expect(answer, [200], "listing sessions")
                }
                let held = Set(sessions.compactMap { session -> String? in
                    guard let user = session["user"]?.stringValue, let resource = session["resource"]?.stringValue else { return nil }
                    return user + "/" + resource
                })
                for serial in serials {
                    guard let entry = unsettled[serial] else { continue }
                    if !held.contains(plan.users[entry.user].name + "/" + entry.resource) {
                        unsettled[serial] = nil
                        ledger.connectionGone(serial, atMs: nowMs)
                    } else if destructiveFaults[entry.user, default: 0] == 0 {
                        unsettled[serial]?.sightings += 1
                        if entry.sightings + 1 >= 5 { kickLeftover(serial, entry: entry) }
                    }
                }
            }
        }
    }

    private func kickLeftover(_ serial: Int, entry: (user: Int, resource: String, sightings: Int)) {
        unsettled[serial]?.sightings = -1_000_000
        let app = plan.apps[plan.users[entry.user].app]
        let body = #"{"user":"\#(plan.users[entry.user].name)","resource":"\#(entry.resource)","code":1,"reason":"soak: the device is gone"}"#
        http.control("POST", "apps/\(app.path)/kick", body: body) { [self] answer in
            expect(answer, [200, 404], "kicking a session whose device is gone")
            unsettled[serial] = nil
            ledger.connectionGone(serial, atMs: nowMs)
        }
    }
}
