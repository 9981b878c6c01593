import IMockCore
import IMockNet

/// State of the stored apps (docs/CONTROL-API.md § State): load a seed document, reset one
/// app or all of them to the state they started with, remove an app, take and restore named per-app
/// checkpoints, and export the current state as seed JSON. Each change replaces an app's
/// stored state as a whole and ends its live side (`Domain.endLiveSide`); other apps are
/// never touched.
enum StateControl {
    static let routes: [ControlRoute] = [
        ControlRoute("POST", "/_imock/seed") { context, request throws(ControlError) in
            let document: SeedDocument
            do throws(SeedError) {
                document = try SeedDocument.parse(bytes: request.http.body)
            } catch {
                throw .badRequest("the seed document is invalid: \(error)")
            }
            let now = context.nowMs
            let seeded = try context.run { domain throws(DomainError) in try domain.seed(document, nowMs: now) }
            context.perform(seeded.outputs)
            return [
                "added": .array(seeded.added.map { .string($0.description) }),
                "replaced": .array(seeded.replaced.map { .string($0.description) }),
            ]
        },
        ControlRoute("POST", "/_imock/reset") { context, request throws(ControlError) in
            try request.allowOnly([])
            let now = context.nowMs
            let reset = try context.run { domain throws(DomainError) in try domain.resetAll(nowMs: now) }
            context.perform(reset.outputs)
            return [
                "reset": .array(reset.reset.map { .string($0.description) }),
                "removed": .array(reset.removed.map { .string($0.description) }),
            ]
        },
        ControlRoute("GET", "/_imock/export") { context, _ in
            SeedDocument.export(context.directory).jsonValue
        },
        ControlRoute("POST", "/_imock/apps/{org}/{app}/reset") { context, request throws(ControlError) in
            try request.allowOnly([])
            let key = try request.appKey(in: context.directory)
            let now = context.nowMs
            let reset = try context.run { domain throws(DomainError) in try domain.reset(key, nowMs: now) }
            context.perform(reset.outputs)
            return ["reset": .string(key.description), "users": .int(Int64(reset.users))]
        },
        ControlRoute("DELETE", "/_imock/apps/{org}/{app}") { context, request throws(ControlError) in
            try request.allowOnly([])
            let key = try request.appKey(in: context.directory)
            // Faults first: a connection behind a black hole must get its kick.
            let cleared = context.sessions.clearAllFaults(app: key)
            let now = context.nowMs
            let outputs = try context.run { domain throws(DomainError) in try domain.removeApp(key, nowMs: now) }
            context.perform(outputs)
            return ["removed": .string(key.description), "faultsCleared": .int(Int64(cleared.count))]
        },
        ControlRoute("GET", "/_imock/apps/{org}/{app}/export") { context, request throws(ControlError) in
            let key = try request.appKey(in: context.directory)
            let state = try context.run { domain throws(DomainError) in try domain.snapshot(key) }
            return SeedDocument(apps: [state]).jsonValue
        },
    ] + StateCheckpoints.routes
}
