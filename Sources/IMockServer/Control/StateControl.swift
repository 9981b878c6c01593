import IMockCore
import IMockNet

/// State of the stored apps (docs/CONTROL-API.md § State): load a seed document, reset one
/// app or all of them to the state they started with, take and restore named per-app
/// checkpoints, and export the current state as seed JSON. Each change replaces an app's
/// stored state as a whole and ends its live side (see ``StateSessions``); other apps are
/// never touched.
enum StateControl {
    static let routes: [ControlRoute] = [
        ControlRoute("POST", "/_imock/seed") { server, request throws(ControlError) in
            try seed(server, request)
        },
        ControlRoute("POST", "/_imock/reset") { server, request throws(ControlError) in
            try request.allowOnly([])
            return try resetAll(server)
        },
        ControlRoute("GET", "/_imock/export") { server, _ in
            SeedDocument.export(server.rest.directory).jsonValue
        },
        ControlRoute("POST", "/_imock/apps/{org}/{app}/reset") { server, request throws(ControlError) in
            try request.allowOnly([])
            let key = try request.appKey(in: server.rest.directory)
            guard let start = server.startSeed.apps.first(where: { $0.appKey == key }) else {
                throw .notFound(
                    "app \(key) was not there at start-up, so it has no start state; POST /_imock/reset removes it")
            }
            try replace(key, with: start, in: server)
            return ["reset": .string(key.description), "users": .int(Int64(start.users.count))]
        },
        ControlRoute("GET", "/_imock/apps/{org}/{app}/export") { server, request throws(ControlError) in
            let key = try request.appKey(in: server.rest.directory)
            return SeedDocument(apps: [try snapshot(key, in: server)]).jsonValue
        },
    ] + StateCheckpoints.routes

    /// `POST /_imock/seed`: adds the apps the document names and replaces those that exist.
    private static func seed(_ server: MockServer, _ request: ControlRequest) throws(ControlError) -> JSONValue {
        let document: SeedDocument
        do throws(SeedError) {
            document = try SeedDocument.parse(bytes: request.http.body)
        } catch {
            throw .badRequest("the seed document is invalid: \(error)")
        }
        var directory = server.rest.directory
        var added: [AppKey] = []
        var replaced: [(key: AppKey, users: [String])] = []
        for (index, app) in document.apps.enumerated() {
            if directory.apps[app.appKey] == nil {
                added.append(app.appKey)
            } else {
                replaced.append((app.appKey, StateSessions.users(of: app.appKey, in: server)))
            }
            do throws(SeedError) {
                try directory.restoreApp(from: app, nowMs: server.clock.nowMs)
            } catch {
                // Not reached (parse validated the document); kept so the path stays right.
                throw .badRequest("the seed document is invalid: apps[\(index)]\(error.path.dropFirst("apps[0]".count)): \(error.message)")
            }
        }
        server.rest.directory = directory
        for (key, users) in replaced { StateSessions.end(app: key, users: users, in: server) }
        return [
            "added": .array(added.sorted().map { .string($0.description) }),
            "replaced": .array(replaced.map(\.key).sorted().map { .string($0.description) }),
        ]
    }

    /// `POST /_imock/reset`: every app back to its start state; apps added later are removed.
    private static func resetAll(_ server: MockServer) throws(ControlError) -> JSONValue {
        let before = server.rest.directory.appKeys.map { ($0, StateSessions.users(of: $0, in: server)) }
        do throws(SeedError) {
            server.rest.directory = try server.startSeed.makeDirectory(
                settings: server.rest.directory.settings, nowMs: server.clock.nowMs)
        } catch {
            throw internalError("the start state could not be loaded again: \(error)")
        }
        for (key, users) in before { StateSessions.end(app: key, users: users, in: server) }
        let kept = Set(server.rest.directory.appKeys)
        return [
            "reset": .array(server.rest.directory.appKeys.map { .string($0.description) }),
            "removed": .array(before.map(\.0).filter { !kept.contains($0) }.map { .string($0.description) }),
        ]
    }

    /// Replaces app `key` with `state` and ends its live side; on error nothing changes.
    static func replace(_ key: AppKey, with state: SeedApp, in server: MockServer) throws(ControlError) {
        let users = StateSessions.users(of: key, in: server)
        do throws(SeedError) {
            try server.rest.directory.restoreApp(from: state, nowMs: server.clock.nowMs)
        } catch {
            throw internalError("the saved state of \(key) could not be loaded again: \(error)")
        }
        StateSessions.end(app: key, users: users, in: server)
    }

    /// The complete current state of app `key`.
    static func snapshot(_ key: AppKey, in server: MockServer) throws(ControlError) -> SeedApp {
        guard let app = server.rest.directory.apps[key] else { throw .notFound("no app \(key)") }
        return SeedApp.export(app)
    }

    private static func internalError(_ description: String) -> ControlError {
        ControlError(status: 500, error: "internal_error", description: description)
    }
}
