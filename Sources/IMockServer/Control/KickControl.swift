import IMockCore

/// `POST /_imock/apps/{org}/{app}/kick`: kick a user's devices (one resource or all) with any
/// code (1 to 2³¹ − 1: Easemob's 206, 217 …, OpenIM's 2002, or one a test invents), an optional
/// reason and "by" device info — the frame, then close 4000 + code (4999 for codes ≥ 1000).
enum KickControl {
    /// The codes a kick may carry: any positive code that fits the frames' 32-bit code field.
    static let codes: ClosedRange<Int64> = 1...Int64(Int32.max)

    static let routes: [ControlRoute] = [
        ControlRoute("POST", "/_imock/apps/{org}/{app}/kick") { server, request throws(ControlError) in
            try request.allowOnly(["user", "resource", "code", "reason", "byDeviceName", "byExtension"])
            let key = try request.appKey(in: server.rest.directory)
            let user = try request.requiredString("user")
            let resource = try request.string("resource")
            let code = Int(try request.requiredInt("code", in: codes))
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
