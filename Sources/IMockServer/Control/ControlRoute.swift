import IMockCore
import IMockNet

/// One control-API endpoint. Handlers run on the loop thread with a ``ControlContext`` and
/// return a JSON body (status 200) or throw a `ControlError`. The few endpoints that answer
/// with something else (Prometheus text, a Server-Sent Events stream) use `response:`.
struct ControlRoute: Sendable {
    typealias Handler = @Sendable (ControlContext, ControlRequest) throws(ControlError) -> JSONValue
    /// A handler that chooses the whole answer (plain text, a stream …); it is authorised like
    /// every other control route before it runs.
    typealias ResponseHandler = @Sendable (ControlContext, ControlRequest) throws(ControlError) -> HTTPServerResponse

    let method: String
    let pattern: String
    let respond: ResponseHandler

    init(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        self.init(method, pattern, response: { context, request throws(ControlError) in
            .respond(.json(status: 200, try handler(context, request).encoded()))
        })
    }

    init(_ method: String, _ pattern: String, response: @escaping ResponseHandler) {
        self.method = method
        self.pattern = pattern
        self.respond = response
    }
}

/// Every control-API endpoint, by area (docs/CONTROL-API.md).
enum ControlAPI {
    static var routes: [ControlRoute] {
        ClockControl.routes + InspectionControl.routes + KickControl.routes + StateControl.routes
            + AppControl.routes + TokenControl.routes + FaultControl.routes + StreamControl.routes
            + RecordControl.routes
    }
}
