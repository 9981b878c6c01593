import IMockCommon
import IMockCore
import IMockNet

/// `/_imock/faults`: inject network and server-behaviour faults, list the active ones, clear
/// them (docs/CONTROL-API.md, "Faults"). Token faults and app switches are in TokenControl
/// and AppControl.
enum FaultControl {
    static let routes: [ControlRoute] = [
        ControlRoute("POST", "/_imock/faults") { context, request throws(ControlError) in
            let body = try FaultRequest(request, context: context)
            let created = context.sessions.addFault(
                body.kind, target: body.target, durationMs: body.durationMs, probability: body.probability,
                seed: context.configuration.randomSeed ?? context.directory.settings.random.next(), trigger: body.trigger)
            return [
                "fault": FaultJSON.json(created.fault, active: created.active),
                "affected": .array(created.affected.map { .int(Int64($0.rawValue)) }),
            ]
        },
        ControlRoute("GET", "/_imock/faults") { context, request throws(ControlError) in
            let app = try request.appQuery(in: context.directory)
            let faults = context.domain.value.faults.faults.filter { app == nil || $0.target.app == app }
            return [
                "seed": context.domain.value.faults.baseSeed.map { .string(String($0)) } ?? .null,
                "faults": .array(faults.map { FaultJSON.json($0, active: true) }),
            ]
        },
        ControlRoute("DELETE", "/_imock/faults") { context, request throws(ControlError) in
            let app = try request.appQuery(in: context.directory)
            let cleared = context.sessions.clearAllFaults(app: app)
            return ["cleared": .array(cleared.map { FaultJSON.json($0, active: false) })]
        },
        ControlRoute("DELETE", "/_imock/faults/{id}") { context, request throws(ControlError) in
            let text = request.parameters["id"] ?? ""
            guard let number = UInt64(text) else { throw .badRequest("the fault id must be a positive integer; got '\(text)'") }
            guard let fault = context.sessions.clearFault(FaultID(rawValue: number)) else {
                throw .notFound("no active fault \(number)")
            }
            return ["cleared": .array([FaultJSON.json(fault, active: false)])]
        },
    ]
}
