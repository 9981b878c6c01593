import IMockCore

/// `/_imock/clock`: read, advance, set, freeze and resume the server clock. Every timer follows
/// it: token warnings and expiry, idle timeouts, fault durations.
enum ClockControl {
    static let routes: [ControlRoute] = [
        ControlRoute("GET", "/_imock/clock") { server, _ in state(server) },
        ControlRoute("POST", "/_imock/clock/advance") { server, request throws(ControlError) in
            try request.allowOnly(["ms"])
            let delta = try request.requiredInt("ms", in: 0...Int64.max)
            try move(server, field: "ms") { () throws(VirtualClockError) in try server.clock.advance(by: delta) }
            return state(server)
        },
        ControlRoute("POST", "/_imock/clock/set") { server, request throws(ControlError) in
            try request.allowOnly(["epochMs"])
            let target = try request.requiredInt("epochMs", in: ValueLimits.epochMs)
            try move(server, field: "epochMs") { () throws(VirtualClockError) in try server.clock.set(to: target) }
            return state(server)
        },
        ControlRoute("POST", "/_imock/clock/freeze") { server, _ in
            server.clock.freeze()
            server.clockMoved()
            return state(server)
        },
        ControlRoute("POST", "/_imock/clock/resume") { server, _ in
            server.clock.resume()
            server.clockMoved()
            return state(server)
        },
    ]

    private static func state(_ server: MockServer) -> JSONValue {
        ["nowMs": .int(server.clock.nowMs), "frozen": .bool(server.clock.isFrozen)]
    }

    private static func move(
        _ server: MockServer, field: String, _ change: () throws(VirtualClockError) -> Void
    ) throws(ControlError) {
        do {
            try change()
        } catch {
            switch error {
            case .negativeAdvance(let delta): throw .badRequest("the clock only moves forward; ms was \(delta)")
            case .movesBackwards(let from, let to): throw .badRequest("the clock only moves forward: \(to) is before \(from)")
            case .beyondMaximum(let maximum):
                throw .badRequest("'\(field)' would move the clock past \(maximum) (9999-12-31T23:59:59.999Z)")
            }
        }
        server.clockMoved()
    }
}
