import IMockCore

extension ScenarioRun {
    /// Clears every fault of the fixture's apps (best effort: the server may be gone).
    func clearFaults() async {
        for app in apps.values {
            _ = try? await server.link.call("DELETE", "/_imock/faults?app=\(app.query)", bearer: server.link.adminSecret)
        }
        faults = []
    }

    /// Ends the sessions of the fixture's apps that outlive its devices (a socket the server has
    /// not seen close yet): kicks every user still listed with 207 (best effort).
    func endSessions() async {
        for app in apps.values {
            guard let listed = try? await sessions(of: app) else { continue }
            for user in Set(listed.compactMap { $0["user"]?.stringValue }).sorted() {
                _ = try? await server.link.call(
                    "POST", "/_imock/apps/\(app.path)/kick", bearer: server.link.adminSecret,
                    body: ["user": .string(user), "code": 207, "reason": "imock run: the fixture ended"])
            }
        }
    }
}
