import IMockCore

extension ScenarioRun {
    /// The members of an existing app (`--app-key`) a fixture keeps: who it is, its credentials
    /// and signing key (tokens the team holds stay valid); its settings are the fixture's.
    static let keptMembers: Set<String> = ["appKey", "uuid", "clientId", "clientSecret", "signingKey", "nextTokenId", "revokedTokenIds"]

    /// The server app of fixture app `name`: the existing app of `--app-key` for the first app,
    /// else one of the fixture's own.
    func serverApp(_ name: String) -> ServerApp {
        if name == fixture.apps[0].name, let key = settings.appKey, let hash = key.firstIndex(of: "#") {
            return ServerApp(org: String(key[..<hash]), app: String(key[key.index(after: hash)...]))
        }
        switch settings.target {
        case .inProcess: return ServerApp(org: "fixture", app: name)
        case .external: return ServerApp(org: "imock-run", app: "\(name)-\(settings.runID)-\(index)")
        }
    }

    /// On an external server, keeps the state of the `--app-key` app (its export) to put back at
    /// the end; in process the app is made afresh.
    func keepExistingApp() async throws(ScenarioFailure) {
        guard settings.appKey != nil, case .external = settings.target else { return }
        let app = apps[fixture.apps[0].name]!
        existingApp = try await server.link.control("GET", "apps/\(app.path)/export")["apps"]?.arrayValue?.first
    }

    /// The seed document of the `--app-key` app during the fixture: `own` (the fixture app's
    /// document) with the existing app's identity and credentials, and the existing users the
    /// fixture does not name.
    func existingAppDocument(_ own: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)]? {
        guard let existing = existingApp?.objectValue else { return nil }
        let named = Set(fixture.apps[0].users.map(\.username))
        let theirs = (existing.first { $0.key == "users" }?.value.arrayValue ?? []).filter {
            !named.contains($0["username"]?.stringValue ?? "")
        }
        var members = existing.filter { Self.keptMembers.contains($0.key) }
        for member in own where !Self.keptMembers.contains(member.key) {
            members.append(member.key == "users" ? (member.key, .array(theirs + (member.value.arrayValue ?? []))) : member)
        }
        return members
    }

    /// Puts the `--app-key` app back as it was before the fixture (best effort).
    func restoreExistingApp() async {
        guard let existingApp else { return }
        _ = try? await server.link.call("POST", "/_imock/seed", bearer: server.link.adminSecret, body: ["version": 1, "apps": [existingApp]])
    }
}
