import IMockCore

extension ScenarioRun {
    /// Checks an expectation on its window; `within` waits on the virtual clock (and, for
    /// real-time devices, in real time up to the cap) for it to hold.
    func check(_ expectation: Expectation) async throws(ScenarioFailure) {
        if case .state(let state) = expectation.kind { return try await check(state) }
        if case .sent(let sent) = expectation.kind { return try await check(sent) }
        let mark: UInt64
        switch expectation.since {
        case nil:
            // "absent … for X" is about the next X of virtual time; every other kind looks at the
            // window since the previous expectation group.
            if case .absent(_, _?) = expectation.kind { mark = observations.lastSequence } else { mark = groupMark }
        case "start"?: mark = 0
        case let label?: mark = labels[label] ?? 0
        }
        let startMs = time.startMs
        let observations = self.observations
        let verdict: () -> ScenarioFailure? = {
            ExpectationEvaluator.check(expectation.kind, window: observations.after(mark), startMs: startMs)
        }
        if case .absent(_, let forMs?) = expectation.kind {
            try await time.advance(by: forMs)
            if time.hasRealTimeDevices { await waitRealTime(limit: min(.milliseconds(forMs), settings.realTimeQuiet)) { false } }
            try await collectTimeline()
        } else if let within = expectation.withinMs, verdict() != nil {
            let held = try await time.advance(by: within) { verdict() == nil }
            if !held, time.hasRealTimeDevices {
                await waitRealTime(limit: min(.milliseconds(within), settings.realTimeCap)) { verdict() == nil }
            }
        }
        if let failure = verdict() { throw failure }
    }

    /// Waits in real time until `done` holds or `limit` passed (real-time adapters only).
    private func waitRealTime(limit: Duration, _ done: () -> Bool) async {
        let deadline = ContinuousClock.now + limit
        while !done(), ContinuousClock.now < deadline {
            await observations.waitForNext(limit: deadline - .now)
        }
    }

    private func check(_ state: StateCheck) async throws(ScenarioFailure) {
        let device = state.device
        let observed = try await command(device, .state, "report its state")
        var expected: [String] = []
        var actual: [String] = []
        func compare(_ name: String, _ want: JSONValue?, _ got: JSONValue?) {
            guard let want else { return }
            if !ValueMatcher.sameValue(want, got ?? .null) {
                expected.append("\(name) = \(want.encodedString)")
                actual.append("\(name) = \((got ?? .null).encodedString)")
            }
        }
        compare("isLoggedIn", state.loggedIn.map(JSONValue.bool), observed["loggedIn"])
        compare("isConnected", state.connected.map(JSONValue.bool), observed["connected"])
        compare("currentUsername", state.currentUser.map { $0.map(JSONValue.string) ?? .null }, observed["currentUser"])
        compare("loginStatus", state.loginStatus.map(JSONValue.string), observed["loginStatus"])
        if let devices = state.devices {
            let listed = try await serverDevices(of: currentUser[device] ?? fixture.device(device)!.user, app: fixture.device(device)!.app)
            compare("devices", .array(devices.map(JSONValue.string)), .array(listed.map(JSONValue.string)))
        }
        guard expected.isEmpty else {
            throw ScenarioFailure("the state of \(device) is not as expected", expected: expected, observed: actual, device: device)
        }
    }

    /// The fixture devices (or raw resources) the server lists as logged in for `user`.
    private func serverDevices(of user: String, app appName: String) async throws(ScenarioFailure) -> [String] {
        return try await sessions(of: apps[appName]!).filter { $0["user"]?.stringValue == user }.map { session in
            let resource = session["resource"]?.stringValue ?? ""
            return device(withResource: resource, app: appName) ?? resource
        }
    }
}
