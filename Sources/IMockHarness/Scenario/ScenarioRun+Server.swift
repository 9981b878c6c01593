import IMockCore

extension ScenarioRun {
    /// Fault kinds that hold frames or pongs: their devices are not waited for, and keep-alive
    /// pings are then fired one by one.
    static let holdingFaults: Set<String> = ["blackhole", "noPong", "delay", "dropFrames", "holdLogin"]

    /// A REST call of the app server; its status and body are checked.
    func perform(_ call: RESTCall) async throws(ScenarioFailure) {
        let appName = call.app ?? fixture.apps[0].name
        let bearer: String?
        switch call.auth {
        case .none: bearer = nil
        case .app: bearer = try await appToken(appName)
        case .token(let source): bearer = try await token(source, device: nil)
        }
        let answer: HTTPAnswer
        let path: String
        switch call.api {
        case .easemob:
            path = "/\(apps[appName]!.path)/" + resources.inServerWords(path: call.path, devices: fixture.devices)
            answer = try await server.link.call(call.method, path, bearer: bearer, body: call.body)
        case .openim:
            path = "/openim/\(apps[appName]!.path)/" + resources.inServerWords(path: call.path, devices: fixture.devices)
            let headers = [("operationID", "imock-run-\(time.nowMs)")] + (bearer.map { [("token", $0)] } ?? [])
            answer = try await server.link.call(call.method, path, bearer: nil, headers: headers, body: call.body)
        }
        timeline.append(.request(summary: "\(call.method) \(path)", status: answer.status, atMs: time.nowMs, isFault: false))
        try verify(answer, status: call.status ?? 200, response: call.response, what: "\(call.method) \(path)")
    }

    /// A control-API call; its status and body are checked.
    func perform(_ call: ControlCall) async throws(ScenarioFailure) {
        if let pattern = call.when {
            arm(call, when: pattern)
            return
        }
        let app = apps[call.app ?? fixture.apps[0].name]!
        let method: String
        let path: String
        var body: JSONValue?
        switch call.action {
        case .kick(let user, let device, let code, let reason, let byName, let byExtension):
            method = "POST"
            path = "apps/\(app.path)/kick"
            var members: [(key: String, value: JSONValue)] = [("user", .string(user)), ("code", .int(Int64(code)))]
            if let device { members.append(("resource", .string(resource(of: device)))) }
            if let reason { members.append(("reason", .string(reason))) }
            if let byName { members.append(("byDeviceName", .string(byName))) }
            if let byExtension { members.append(("byExtension", .string(byExtension))) }
            body = .object(members)
        case .expireToken(let user):
            (method, path, body) = ("POST", "apps/\(app.path)/tokens/expire", ["user": .string(user)])
        case .revokeTokens(let user):
            (method, path, body) = ("POST", "apps/\(app.path)/tokens/revoke", ["user": .string(user)])
        case .settings(let settings):
            (method, path, body) = ("POST", "apps/\(app.path)/settings", settings)
        case .fault(let kind, let user, let device, let fields):
            var members: [(key: String, value: JSONValue)] = [("kind", .string(kind)), ("app", .string(app.key))]
            if let device {
                members.append(("user", .string(currentUser[device] ?? fixture.device(device)!.user)))
                members.append(("resource", .string(resource(of: device))))
            } else if let user {
                members.append(("user", .string(user)))
            }
            (method, path, body) = ("POST", "faults", .object(members + fields))
            let answer = try await server.link.call(method, "/_imock/" + path, bearer: server.link.adminSecret, body: body)
            timeline.append(.request(summary: "fault \(kind) on \(device ?? user ?? app.key)", status: answer.status, atMs: time.nowMs, isFault: true))
            try verify(answer, status: call.status ?? 200, response: call.response, what: "POST /_imock/faults")
            remember(answer, kind: kind, device: device, user: user)
            return
        case .tokens(let user):
            (method, path) = ("GET", "apps/\(app.path)/tokens" + (user.map { "?user=\($0)" } ?? ""))
        case .sessions:
            (method, path) = ("GET", "apps/\(app.path)/sessions")
        case .clearFaults:
            (method, path) = ("DELETE", "faults?app=\(app.query)")
            faults = []
            time.exactHeartbeats = false
        }
        let answer = try await server.link.call(method, "/_imock/" + path, bearer: server.link.adminSecret, body: body)
        timeline.append(.request(summary: "control \(call.action.summary)", status: answer.status, atMs: time.nowMs, isFault: false))
        try verify(answer, status: call.status ?? 200, response: call.response, what: "\(method) /_imock/\(path)")
    }

    /// A network change of one device, made of server faults on its user and resource.
    func perform(_ change: NetworkChange) async throws(ScenarioFailure) {
        let device = fixture.device(change.device)!
        let app = apps[device.app]!
        if change.kind == .restore {
            let user = currentUser[device.name] ?? device.user
            let mine = { (fault: (id: Int64, device: String?, user: String?, kind: String, endsAtMs: Int64?)) in
                fault.device == device.name || (fault.device == nil && fault.user == user && (fault.kind == "drop" || fault.kind == "blackhole"))
            }
            for fault in faults where mine(fault) {
                _ = try await server.link.call("DELETE", "/_imock/faults/\(fault.id)", bearer: server.link.adminSecret)
            }
            faults.removeAll(where: mine)
            time.exactHeartbeats = faults.contains { Self.holdingFaults.contains($0.kind) }
            timeline.append(.request(summary: "network restored for \(device.name)", status: 200, atMs: time.nowMs, isFault: true))
            return
        }
        let kind = change.kind == .cut ? "drop" : "blackhole"
        let user = currentUser[device.name] ?? device.user
        var members: [(key: String, value: JSONValue)] = [
            ("kind", .string(kind)), ("app", .string(app.key)), ("user", .string(user)),
            ("durationMs", .int(change.durationMs ?? 100 * 365 * 86_400_000)),
        ]
        // The device's resource while it has a live session under it; else (not logged in yet, or
        // an SDK that names its own resource) the fault covers the user's connections.
        let live = try await sessions(of: app).contains { $0["user"]?.stringValue == user && $0["resource"]?.stringValue == resource(of: device.name) }
        if live { members.append(("resource", .string(resource(of: device.name)))) }
        let scope: String? = live ? device.name : nil
        let answer = try await server.link.call("POST", "/_imock/faults", bearer: server.link.adminSecret, body: .object(members))
        timeline.append(.request(summary: "network \(change.kind.rawValue) \(device.name)", status: answer.status, atMs: time.nowMs, isFault: true))
        try verify(answer, status: 200, response: nil, what: "POST /_imock/faults (\(kind))")
        remember(answer, kind: kind, device: scope, user: user)
        if scope == nil, let id = answer.body["fault"]?["id"]?.intValue, let index = faults.lastIndex(where: { $0.id == id }) {
            faults[index].device = nil
        }
    }

    /// The app's live sessions as the control API lists them.
    func sessions(of app: ServerApp) async throws(ScenarioFailure) -> [JSONValue] {
        try await server.link.control("GET", "apps/\(app.path)/sessions")["sessions"]?.arrayValue ?? []
    }

    private func remember(_ answer: HTTPAnswer, kind: String, device: String?, user: String?) {
        guard let id = answer.body["fault"]?["id"]?.intValue, answer.body["fault"]?["active"]?.boolValue == true else { return }
        faults.append((id, device, user, kind, answer.body["fault"]?["expiresAtMs"]?.intValue))
        if Self.holdingFaults.contains(kind) { time.exactHeartbeats = true }
    }

    /// The devices a holding fault covers now (app-wide faults cover every device of the app).
    func impairedDevices() -> Set<String> {
        let now = time?.nowMs ?? 0
        var impaired: Set<String> = []
        for fault in faults where Self.holdingFaults.contains(fault.kind) && (fault.endsAtMs.map { $0 > now } ?? true) {
            for device in fixture.devices {
                let covered = fault.device.map { $0 == device.name }
                    ?? fault.user.map { $0 == (currentUser[device.name] ?? device.user) } ?? true
                if covered { impaired.insert(device.name) }
            }
        }
        return impaired
    }

    func verify(_ answer: HTTPAnswer, status: Int, response: ValueMatcher?, what: String) throws(ScenarioFailure) {
        lastAnswer = answer.body
        guard answer.status == status else {
            throw ScenarioFailure(
                "\(what) answered \(answer.status), expected \(status)", expected: ["status \(status)"],
                observed: ["status \(answer.status) \(answer.body.encodedString)"])
        }
        if let response, !response.matches(resources.inFixtureWords(answer.body, devices: fixture.devices)) {
            throw ScenarioFailure(
                "\(what): the answer does not match", expected: [response.summary], observed: [answer.body.encodedString])
        }
    }
}
