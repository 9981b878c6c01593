import IMockCore

extension ScenarioRun {
    /// Clears every fault of the fixture's apps (best effort: the server may be gone).
    func clearFaults() async {
        for app in apps.values {
            _ = try? await server.link.call("DELETE", "/_imock/faults?app=\(app.query)", bearer: server.link.adminSecret)
        }
        faults = []
    }

    /// Removes the apps the fixture created (`DELETE /_imock/apps/{org}/{app}`, best effort; not
    /// an `--app-key` app): a shared server ends with the apps it had before.
    func removeApps() async {
        let existing = existingApp == nil ? nil : apps[fixture.apps[0].name]
        for app in apps.values where app != existing {
            _ = try? await server.link.call("DELETE", "/_imock/apps/\(app.path)", bearer: server.link.adminSecret)
        }
    }
}
