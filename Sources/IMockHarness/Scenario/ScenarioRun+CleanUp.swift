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
        for app in createdApps {
            _ = try? await server.link.call("DELETE", "/_imock/apps/\(app.path)", bearer: server.link.adminSecret)
            InterruptCleanup.removed(app.path)
        }
    }

    /// The fixture's apps seeded on a shared server: an interrupted run removes them
    /// (``InterruptCleanup``) if the fixture cannot.
    func noteCreatedApps() {
        for app in createdApps { InterruptCleanup.created(app.path, endpoint: server.link.endpoint, adminSecret: server.link.adminSecret) }
    }

    /// The apps the fixture created on the server: all of its apps but an `--app-key` one.
    private var createdApps: [ServerApp] {
        let existing = existingApp == nil ? nil : apps[fixture.apps[0].name]
        return apps.values.filter { $0 != existing }
    }
}
