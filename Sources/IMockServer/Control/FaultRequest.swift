import IMockCore
import IMockNet

/// A `POST /_imock/faults` body, read and checked (docs/CONTROL-API.md, "Faults"): every
/// malformed field is a 400 naming it; an unknown app, user or connection is a 404 (a resource
/// need not be logged in: the fault applies from its login).
struct FaultRequest {
    var kind: FaultKind
    var target: FaultTarget
    var durationMs: Int64?
    var probability: Double
    /// When it starts acting on a matching connection (`afterFrames` or `on`).
    var trigger: FaultTrigger?

    /// Longest hold (delay, holdLogin): ten minutes.
    static let maximumHoldMs: Int64 = 600_000
    /// Most frames one dropFrames fault discards.
    static let maximumDropFrames: Int64 = 1_000_000

    /// Most bytes a `limitData` lets pass: 1 TiB.
    static let maximumLimitBytes: Int64 = 1 << 40

    /// Most frames an `afterFrames` trigger waits for.
    static let maximumAfterFrames: Int64 = 1_000_000

    private static let common: Set<String> = [
        "kind", "app", "user", "resource", "connection", "durationMs", "probability", "afterFrames", "on",
    ]

    init(_ request: ControlRequest, context: ControlContext) throws(ControlError) {
        let name = try request.requiredString("kind")
        switch name {
        case "drop": kind = .drop
        case "reset": kind = .reset
        case "blackhole": kind = .blackhole
        case "noPong": kind = .noPong
        case "failUnbind": kind = .failUnbind
        case "delay":
            kind = .delay(
                ms: try FaultRequest.hold(request), jitterMs: try request.int("jitterMs", in: 0...FaultRequest.maximumHoldMs) ?? 0)
            _ = try FaultRequest.direction(request, of: "delay", upstream: false)
        case "slicer":
            kind = .slicer(
                bytes: Int(try request.requiredInt("bytes", in: 1...65_536)),
                delayMs: try request.int("delayMs", in: 0...10_000) ?? 0)
            _ = try FaultRequest.direction(request, of: "slicer", upstream: false)
        case "bandwidth":
            kind = .bandwidth(bytesPerSecond: try request.requiredInt("bytesPerSecond", in: 1...1_000_000_000))
            _ = try FaultRequest.direction(request, of: "bandwidth", upstream: false)
        case "limitData":
            kind = .limitData(
                bytes: try request.requiredInt("bytes", in: 1...FaultRequest.maximumLimitBytes),
                direction: try FaultRequest.direction(request, of: "limitData", upstream: true))
        case "holdLogin": kind = .holdLogin(ms: try FaultRequest.hold(request))
        case "dropFrames":
            kind = .dropFrames(count: Int(try request.requiredInt("count", in: 1...FaultRequest.maximumDropFrames)))
        case "failSync": kind = .failSync(types: try FaultRequest.syncTypes(request))
        default:
            throw .badRequest("'kind' must be one of \(FaultKind.names.joined(separator: ", ")); got '\(name)'")
        }
        try request.allowOnly(FaultRequest.common.union(FaultRequest.extraFields(of: kind)))
        durationMs = try request.int("durationMs", in: 1...ValueLimits.maximumDurationMs)
        probability = try FaultRequest.probability(request)
        trigger = try FaultRequest.trigger(request, kind: kind)
        target = try FaultRequest.target(request, context: context)
    }

    private static func extraFields(of kind: FaultKind) -> Set<String> {
        switch kind {
        case .delay: ["ms", "jitterMs", "direction"]
        case .holdLogin: ["ms"]
        case .limitData: ["bytes", "direction"]
        case .slicer: ["bytes", "delayMs", "direction"]
        case .bandwidth: ["bytesPerSecond", "direction"]
        case .dropFrames: ["count"]
        case .failSync: ["types"]
        default: []
        }
    }

    private static func hold(_ request: ControlRequest) throws(ControlError) -> Int64 {
        try request.requiredInt("ms", in: 1...maximumHoldMs)
    }

    /// `direction` (default downstream); `upstream` only where imock can act on what it reads.
    private static func direction(_ request: ControlRequest, of kind: String, upstream: Bool) throws(ControlError) -> FaultDirection {
        guard let text = try request.string("direction") else { return .downstream }
        guard let direction = FaultDirection(rawValue: text) else {
            throw .badRequest("'direction' must be downstream or upstream; got '\(text)'")
        }
        if direction == .upstream, !upstream {
            throw .badRequest("'direction' upstream is not possible for \(kind): the server holds what it sends, and reads a client's frames as they come")
        }
        return direction
    }

    private static func syncTypes(_ request: ControlRequest) throws(ControlError) -> Set<SyncType> {
        let allowed = SyncType.allCases.map(\.rawValue).joined(separator: ", ")
        guard let value = request.body["types"], !value.isNull else { throw .badRequest("'types' is required") }
        guard let items = value.arrayValue, !items.isEmpty else {
            throw .badRequest("'types' must be a non-empty array of \(allowed)")
        }
        var types: Set<SyncType> = []
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue, let type = SyncType(rawValue: text) else {
                throw .badRequest("'types[\(index)]' must be one of \(allowed)")
            }
            types.insert(type)
        }
        return types
    }

    /// `afterFrames: N` or `on: "<event>"`, for the faults that act on frames.
    private static func trigger(_ request: ControlRequest, kind: FaultKind) throws(ControlError) -> FaultTrigger? {
        let after = try request.int("afterFrames", in: 0...maximumAfterFrames)
        let event = try request.string("on")
        guard after != nil || event != nil else { return nil }
        guard after == nil || event == nil else { throw .badRequest("give 'afterFrames' or 'on', not both") }
        switch kind {
        case .failUnbind, .failSync:
            throw .badRequest("'\(kind.name)' acts on requests, not on frames: it takes no 'afterFrames' or 'on'")
        default:
            break
        }
        if let after { return .afterFrames(Int(after)) }
        let names = FaultEvent.allCases.map(\.rawValue)
        guard let event, let parsed = FaultEvent(rawValue: event) else {
            throw .badRequest("'on' must be one of \(names.joined(separator: ", ")); got '\(event ?? "")'")
        }
        return .on(parsed)
    }

    private static func probability(_ request: ControlRequest) throws(ControlError) -> Double {
        try request.number("probability", in: 0...1) ?? 1
    }

    /// `connection`, or `app` with an optional `user` and `resource` (which needs `user`).
    private static func target(_ request: ControlRequest, context: ControlContext) throws(ControlError) -> FaultTarget {
        let appName = try request.string("app")
        let user = try request.string("user")
        let resource = try request.string("resource")
        if let number = try request.int("connection", in: 1...ValueLimits.maximumCounter) {
            guard appName == nil, user == nil, resource == nil else {
                throw .badRequest("'connection' names one connection: give it without 'app', 'user' and 'resource'")
            }
            let id = ConnectionID(UInt64(number))
            guard context.sessions.channels[id] != nil else { throw .notFound("no open connection \(number)") }
            return .connection(id)
        }
        guard let appName else { throw .badRequest("'app' (org#app) or 'connection' is required") }
        guard let key = try? AppKey(parsing: appName) else { throw .badRequest("'app' must be 'org#app'; got '\(appName)'") }
        guard (try? context.directory.app(key)) != nil else { throw .notFound("no app \(key)") }
        guard let user else {
            if resource != nil { throw .badRequest("'resource' needs 'user'") }
            return .app(key)
        }
        guard let name = try? UserFields.normalizeUsername(user), (try? context.directory.user(name, in: key)) != nil
        else { throw .notFound("no user '\(user)' in \(key)") }
        guard let resource else { return .user(key, name) }
        // A resource with no live session yet is a device that has not logged in: the fault
        // waits for it and matches its connection once that sends a login for the resource.
        guard !resource.isEmpty else { throw .badRequest("'resource' must not be empty") }
        return .resource(key, user: name, resource: resource)
    }
}
