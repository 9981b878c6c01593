import IMockCore

/// `POST /_imock/apps/{org}/{app}/kick`: kick a user's devices (one resource or all) with any
/// code (1 to 2³¹ − 1: Easemob's 206, 217 …, OpenIM's 2002, or one a test invents), an optional
/// reason and "by" device info — the dialect's kick, then its close (imock: 4000 + code, 4999
/// for codes ≥ 1000).
enum KickControl {
    /// The codes a kick may carry: any positive code that fits the frames' 32-bit code field.
    static let codes: ClosedRange<Int64> = 1...Int64(Int32.max)

    static let routes: [ControlRoute] = [
        ControlRoute("POST", "/_imock/apps/{org}/{app}/kick") { context, request throws(ControlError) in
            try request.allowOnly(["user", "resource", "code", "reason", "byDeviceName", "byExtension"])
            let key = try request.appKey(in: context.directory)
            let user = try request.requiredString("user")
            let resource = try request.string("resource")
            let code = Int(try request.requiredInt("code", in: codes))
            let byName = try request.string("byDeviceName")
            let byExtension = try request.string("byExtension")
            let by = byName == nil && byExtension == nil
                ? nil : KickedBy(deviceName: byName ?? "", extensionInfo: byExtension ?? "")
            let reason = try request.string("reason") ?? "kicked by the control API"
            let now = context.nowMs
            let kicked = try context.run { domain throws(DomainError) in
                try domain.kick(app: key, user: user, resource: resource, code: code, reason: reason, by: by, nowMs: now)
            }
            context.perform(kicked.outputs)
            return ["kicked": .array(kicked.resources.map { .string($0) })]
        },
    ]
}
