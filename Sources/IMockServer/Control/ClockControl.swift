import IMockCommon
import IMockCore

/// `/_imock/clock`: read, advance, set, freeze and resume the server clock. Every timer follows
/// it: token warnings and expiry, idle timeouts, fault durations.
enum ClockControl {
    static let routes: [ControlRoute] = [
        ControlRoute("GET", "/_imock/clock") { context, _ in state(context) },
        ControlRoute("POST", "/_imock/clock/advance") { context, request throws(ControlError) in
            try request.allowOnly(["ms"])
            let delta = try request.requiredInt("ms", in: 0...Int64.max)
            let target = context.nowMs.clampedAdding(delta)
            try move(context, to: target, field: "ms") { () throws(VirtualClockError) in try context.clock.advance(by: delta) }
            return state(context)
        },
        ControlRoute("POST", "/_imock/clock/set") { context, request throws(ControlError) in
            try request.allowOnly(["epochMs"])
            let target = try request.requiredInt("epochMs", in: ValueLimits.epochMs)
            try move(context, to: target, field: "epochMs") { () throws(VirtualClockError) in
                try context.clock.set(to: target)
            }
            return state(context)
        },
        ControlRoute("POST", "/_imock/clock/freeze") { context, _ in
            context.clock.freeze()
            return state(context)
        },
        ControlRoute("POST", "/_imock/clock/resume") { context, _ in
            context.clock.resume()
            return state(context)
        },
    ]

    private static func state(_ context: ControlContext) -> JSONValue {
        ["nowMs": .int(context.clock.nowMs), "frozen": .bool(context.clock.isFrozen)]
    }

    private static func move(
        _ context: ControlContext, to target: Int64, field: String, _ change: () throws(VirtualClockError) -> Void
    ) throws(ControlError) {
        do {
            try context.moveClock(target, change)
        } catch {
            switch error {
            case .negativeAdvance(let delta): throw .badRequest("the clock only moves forward; ms was \(delta)")
            case .movesBackwards(let from, let to): throw .badRequest("the clock only moves forward: \(to) is before \(from)")
            case .beyondMaximum(let maximum):
                throw .badRequest("'\(field)' would move the clock past \(maximum) (9999-12-31T23:59:59.999Z)")
            }
        }
    }
}
