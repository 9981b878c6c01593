import IMockCore

/// `POST /_imock/apps/{org}/{app}/kick`: kick a user's devices (one resource or all) with any
/// code, an optional reason and "by" device info — the frame, then close 4000 + code.
enum KickControl {
    /// The codes the documents define for kicks and fatal errors.
    static let codes: Set<Int> = [8, 104, 108, 202, 206, 207, 213, 214, 216, 217, 220, 305]

    static let routes: [ControlRoute] = [
        ControlRoute("POST", "/_imock/apps/{org}/{app}/kick") { server, request throws(ControlError) in
            try request.allowOnly(["user", "resource", "code", "reason", "byDeviceName", "byExtension"])
            let key = try request.appKey(in: server.rest.directory)
            let user = try request.requiredString("user")
            let resource = try request.string("resource")
            let code = Int(try request.requiredInt("code"))
            guard codes.contains(code) else {
                throw .badRequest("'code' must be one of \(codes.sorted().map(String.init).joined(separator: ", "))")
            }
            let sessions = server.hub.engine.sessions(of: user, in: key).filter { resource == nil || $0.device.resource == resource }
            guard !sessions.isEmpty else {
                throw .notFound("no live session of '\(user)'\(resource.map { " with resource '\($0)'" } ?? "") in \(key)")
            }
            let byName = try request.string("byDeviceName")
            let byExtension = try request.string("byExtension")
            let by = byName == nil && byExtension == nil
                ? nil : KickedBy(deviceName: byName ?? "", extensionInfo: byExtension ?? "")
            let reason = try request.string("reason") ?? "kicked by the control API"
            let now = server.clock.nowMs
            server.hub.run { $0.kick(app: key, user: user, resource: resource, code: code, reason: reason, by: by, nowMs: now) }
            return ["kicked": .array(sessions.map { .string($0.device.resource) })]
        },
    ]
}
