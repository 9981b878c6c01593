import IMockCore
import IMockNet

/// Routes about a user's live devices: disconnect, status, batch status, resources.
enum DeviceRoute {
    /// `GET /users/{username}/disconnect`: kick every device (effect, code 217).
    static func disconnectAll(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            let name = try RESTHandlerSteps.existingUserForAdmin(request, app: app, directory: state.directory)
            var envelope = RESTEnvelope(action: "get")
            envelope.uri = request.uri
            envelope.entities = []
            envelope.data = ["result": true]
            envelope.count = 0
            return RESTOutcome(
                response: envelope.response(nowMs: request.nowMs),
                effects: [.disconnectUser(app.key, username: name, resource: nil)])
        }
    }

    /// `DELETE` (docs) or `GET` (Java SDK) `/users/{username}/disconnect/{resource}`: kick one
    /// device; 400 "resource not exist" when that resource is not online.
    static func disconnectOne(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            let name = try RESTHandlerSteps.existingUserForAdmin(request, app: app, directory: state.directory)
            let resource = request.pathParameters["resource"] ?? ""
            guard request.presence.sessions(of: name, in: app.key).contains(where: { $0.resource == resource }) else {
                throw .illegalArgument("resource not exist")
            }
            var envelope = RESTEnvelope(
                action: request.http.method == "GET" ? "get" : "delete", app: app, path: nil, uri: request.uri)
            envelope.entities = []
            envelope.data = ["result": true]
            return RESTOutcome(
                response: envelope.response(nowMs: request.nowMs),
                effects: [.disconnectUser(app.key, username: name, resource: resource)])
        }
    }

    /// `GET /users/{username}/status`: `{"data":{"<username>":"online"|"offline"}}`.
    static func status(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            let name = try RESTHandlerSteps.existingUserForAdmin(request, app: app, directory: state.directory)
            var envelope = RESTEnvelope(action: "get")
            envelope.uri = request.uri
            envelope.entities = []
            envelope.data = .object([(key: name, value: .string(onlineStatus(name, app: app, request: request)))])
            envelope.count = 0
            return RESTOutcome(response: envelope.response(nowMs: request.nowMs))
        }
    }

    /// Most names in one `POST /users/batch/status`.
    static let maximumBatchStatusNames = 100

    /// `POST /users/batch/status` with `{"usernames":[…]}`; unknown users are `offline`.
    static func batchStatus(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            try RESTHandlerSteps.requireJSONContentType(request)
            try RESTHandlerSteps.requireAppToken(request, app: app, directory: state.directory)
            let fields = try RESTBodyFields(RESTHandlerSteps.jsonBody(request))
            guard let names = try fields.strings("usernames") else { throw .illegalArgument("usernames is required") }
            guard names.count <= maximumBatchStatusNames else {
                throw .illegalArgument(
                    "request body exceeds maximum limit, maximum limit is \(maximumBatchStatusNames)")
            }
            var envelope = RESTEnvelope(action: "get batch user status")
            envelope.data = .array(
                names.map { raw in
                    let status = (try? UserFields.normalizeUsername(raw)).map { name in
                        !state.directory.hasUser(name, in: app.key) ? "offline" : onlineStatus(name, app: app, request: request)
                    } ?? "offline"
                    return .object([(key: raw, value: .string(status))])
                })
            return RESTOutcome(response: envelope.response(nowMs: request.nowMs))
        }
    }

    /// `GET /users/{username}/resources` with the app token or that user's own token.
    static func resources(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            let name = try RESTHandlerSteps.pathUsername(request)
            switch try RESTHandlerSteps.caller(request, app: app, directory: state.directory) {
            case .app: break
            case .user(let subject) where subject == name: break
            case .user: throw .noPermission(method: request.http.method, app: app)
            case .anonymous: throw .unauthorized
            }
            guard state.directory.hasUser(name, in: app.key) else { throw .serviceResourceNotFound }
            var envelope = RESTEnvelope(
                action: "get", app: app, path: "/users/\(name)/resources", uri: request.uri)
            envelope.entities = []
            envelope.data = .array(
                request.presence.sessions(of: name, in: app.key).map {
                    [
                        "res": .string($0.resource), "device_uuid": .string($0.deviceUUID),
                        "device_name": .string($0.deviceName),
                    ]
                })
            return RESTOutcome(response: envelope.response(nowMs: request.nowMs))
        }
    }

    static func onlineStatus(_ name: String, app: RESTApp, request: RESTRequest) -> String {
        request.presence.sessions(of: name, in: app.key).isEmpty ? "offline" : "online"
    }
}
