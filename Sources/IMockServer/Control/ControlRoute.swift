import IMockCore
import IMockNet

/// One control-API endpoint. Handlers run on the loop thread with the server's state and
/// return a JSON body (status 200) or throw a `ControlError`.
struct ControlRoute: Sendable {
    typealias Handler = @Sendable (MockServer, ControlRequest) throws(ControlError) -> JSONValue

    let method: String
    let pattern: String
    let handler: Handler

    init(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        self.method = method
        self.pattern = pattern
        self.handler = handler
    }
}

/// Every control-API endpoint, by area (docs/CONTROL-API.md).
enum ControlAPI {
    static var routes: [ControlRoute] {
        ClockControl.routes + InspectionControl.routes + KickControl.routes + StateControl.routes
            + AppControl.routes + TokenControl.routes + FaultControl.routes + StreamControl.routes
    }
}
