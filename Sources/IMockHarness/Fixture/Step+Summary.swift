import IMockCore

extension Step {
    /// The step in a few words, as reports show it.
    public var summary: String {
        switch kind {
        case .device(let action): "\(action.device).\(action.call.summary)"
        case .rest(let call): "REST \(call.method) /{org}/{app}/\(call.path)"
        case .control(let call): "control \(call.action.summary)"
        case .network(let change): "network \(change.kind.rawValue) \(change.device)" + (change.durationMs.map { " for \(DurationText.format($0))" } ?? "")
        case .advance(let ms): "advance \(DurationText.format(ms))"
        case .issueToken(let name, let token): "issueToken \(name) (\(token.summary))"
        case .expect(let expectation): "expect " + expectation.summary
        }
    }
}

extension Step {
    /// Whether the step can fail a scenario on its own: an expectation, a REST call (its status),
    /// a control call with an expected answer, a device call with an expected result.
    public var checks: Bool {
        switch kind {
        case .expect, .rest: true
        case .control(let call): call.status != nil || call.response != nil
        case .device(let action): action.result != nil
        default: false
        }
    }

    /// The device the step acts on, if one.
    public var device: String? {
        switch kind {
        case .device(let action): action.device
        case .network(let change): change.device
        default: nil
        }
    }
}

extension DeviceCall {
    var summary: String {
        switch self {
        case .initialize: "init"
        case .addDelegate: "addDelegate"
        case .removeDelegate: "removeDelegate"
        case .login(let user, let token): "login(\(user ?? "its user"), \(token.summary))"
        case .autoLogin(let user, let token): "autoLogin(\(user ?? "its user"), \(token.summary))"
        case .logout(let unbind): "logout(unbindDeviceToken: \(unbind))"
        case .renewToken(let token): "renewToken(\(token.summary))"
        case .send(let to, let text): "send(to: \(to), \(JSONValue.string(text).encodedString))"
        case .ack(let id): "ack(\(id))"
        case .switchAccount(let user, _): "switchAccount(to: \(user))"
        case .queryDevices(let user, _): "getLoggedInDevicesFromServer(\(user ?? "its user"))"
        case .restart: "restart"
        }
    }
}

extension TokenSource {
    var summary: String {
        switch self {
        case .fresh(let user, let ttl, _): "token of \(user ?? "the user")" + (ttl.map { " ttl \(DurationText.format($0 * 1000))" } ?? "")
        case .named(let name): "token \(name)"
        case .literal(let text): "literal token \(JSONValue.string(String(text.prefix(12))).encodedString)"
        case .appToken: "app token"
        }
    }
}

extension ControlAction {
    var summary: String {
        switch self {
        case .kick(let user, let device, let code, _, _, _): "kick \(device ?? user) \(code)"
        case .expireToken(let user): "expireToken \(user)"
        case .revokeTokens(let user): "revokeTokens \(user)"
        case .settings(let settings): "settings \(settings.encodedString)"
        case .fault(let kind, let user, let device, _): "fault \(kind) on \(device ?? user ?? "the app")"
        case .clearFaults: "clearFaults"
        case .tokens(let user): "tokens" + (user.map { " of \($0)" } ?? "")
        case .sessions: "sessions"
        }
    }
}

extension Expectation {
    /// The expectation in a few words.
    public var summary: String {
        let wait = withinMs.map { " within \(DurationText.format($0))" } ?? ""
        switch kind {
        case .sequence(let device, let patterns, let gaps, let complete):
            return "sequence on \(device)\(gaps ? "" : " (no gaps)")\(complete ? " (complete)" : ""): "
                + patterns.map(\.name).joined(separator: " → ") + wait
        case .unordered(let patterns): return "unordered: " + patterns.map { "\($0.device).\($0.name)" }.joined(separator: ", ") + wait
        case .order(let patterns): return "order: " + patterns.map { "\($0.device).\($0.name)" }.joined(separator: " before ") + wait
        case .absent(let patterns, let forMs):
            return "absent: " + patterns.map { "\($0.device).\($0.name)" }.joined(separator: ", ")
                + (forMs.map { " for \(DurationText.format($0))" } ?? "")
        case .state(let check): return "state of \(check.device)"
        case .sent(let check): return check.summary
        }
    }
}
