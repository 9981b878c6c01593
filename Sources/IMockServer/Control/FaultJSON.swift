import IMockCore

/// How the control API shows a fault.
enum FaultJSON {
    static func json(_ fault: Fault, active: Bool) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .int(Int64(fault.id.rawValue))),
            ("kind", .string(fault.kind.name)),
            ("target", target(fault.target)),
        ]
        switch fault.kind {
        case .delay(let ms, let jitterMs):
            members.append(("ms", .int(ms)))
            if jitterMs > 0 { members.append(("jitterMs", .int(jitterMs))) }
        case .holdLogin(let ms): members.append(("ms", .int(ms)))
        case .limitData(let bytes, let direction):
            members += [("bytes", .int(bytes)), ("direction", .string(direction.rawValue))]
        case .slicer(let bytes, let delayMs): members += [("bytes", .int(Int64(bytes))), ("delayMs", .int(delayMs))]
        case .bandwidth(let rate): members.append(("bytesPerSecond", .int(rate)))
        case .dropFrames(let count):
            members.append(("count", .int(Int64(count))))
            members.append(("remaining", .int(Int64(fault.remainingFrames))))
        case .failSync(let types): members.append(("types", .array(types.map(\.rawValue).sorted().map { .string($0) })))
        default: break
        }
        switch fault.trigger {
        case .afterFrames(let count): members.append(("afterFrames", .int(Int64(count))))
        case .on(let event): members.append(("on", .string(event.rawValue)))
        case nil: break
        }
        members += [
            ("probability", .double(fault.probability)),
            ("createdAtMs", .int(fault.createdAtMs)),
            ("expiresAtMs", fault.expiresAtMs.map { .int($0) } ?? .null),
            ("seed", .string(String(fault.seed))),
            ("applied", .int(Int64(fault.applied))),
            ("active", .bool(active)),
        ]
        return .object(members)
    }

    static func target(_ target: FaultTarget) -> JSONValue {
        switch target {
        case .app(let app): ["app": .string(app.description)]
        case .user(let app, let user): ["app": .string(app.description), "user": .string(user)]
        case .resource(let app, let user, let resource):
            ["app": .string(app.description), "user": .string(user), "resource": .string(resource)]
        case .connection(let id): ["connection": .int(Int64(id.rawValue))]
        }
    }
}
