import IMockCore
import IMockNet

/// A refused control-API call. The body is the same error envelope as the REST API's
/// (`error`, `exception`, `timestamp`, `duration`, `error_description`).
struct ControlError: Error, Sendable {
    var status: Int
    var error: String
    var description: String

    func response(nowMs: Int64) -> HTTPResponse {
        RESTError(status: status, error: error, exception: "ControlAPIException", description: description)
            .response(nowMs: nowMs)
    }

    static func badRequest(_ description: String) -> ControlError {
        ControlError(status: 400, error: "illegal_argument", description: description)
    }

    static func notFound(_ description: String) -> ControlError {
        ControlError(status: 404, error: "not_found", description: description)
    }

    static let unauthorized = ControlError(
        status: 401, error: "unauthorized",
        description: "the control API needs 'Authorization: Bearer <admin secret>'")

    static let notLoopback = ControlError(
        status: 403, error: "forbidden",
        description: "the control API answers loopback clients only (imock serve --control-remote allows others)")
}
