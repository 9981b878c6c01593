import IMockCore
import IMockNet

/// Routes on one user: get, delete, password, deactivate, activate.
enum UserRoute {
    /// `GET /users/{username}`.
    static func get(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            try RESTHandlerSteps.requireAppToken(request, app: app, directory: state.directory)
            let name = try RESTHandlerSteps.pathUsername(request)
            guard let user = state.directory.userNamed(name, in: app.key) else { throw .serviceResourceNotFound }
            var envelope = RESTEnvelope(action: "get", app: app, path: "/users", uri: request.uri)
            envelope.entities = [user.entity]
            envelope.count = 1
            return RESTOutcome(response: envelope.response(nowMs: request.nowMs))
        }
    }

    /// `DELETE /users/{username}`; effect ``RESTEffect/userDeleted(_:username:)``.
    static func delete(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            try RESTHandlerSteps.requireAppToken(request, app: app, directory: state.directory)
            let name = try RESTHandlerSteps.pathUsername(request)
            let user = try RESTHandlerSteps.domain(app) { () throws(DirectoryError) in
                try state.directory.deleteUser(name, in: app.key)
            }
            var envelope = RESTEnvelope(action: "delete", app: app, path: "/users", uri: request.uri)
            envelope.entities = [user.entity]
            return RESTOutcome(
                response: envelope.response(nowMs: request.nowMs),
                effects: [.userDeleted(app.key, username: user.username)])
        }
    }

    /// `PUT` (and `POST`) `/users/{username}/password` with `{"newpassword": "…"}`;
    /// effect ``RESTEffect/passwordChanged(_:username:)``.
    static func changePassword(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            try RESTHandlerSteps.requireJSONContentType(request)
            try RESTHandlerSteps.requireAppToken(request, app: app, directory: state.directory)
            let fields = try RESTBodyFields(RESTHandlerSteps.jsonBody(request))
            guard let password = try fields.string("newpassword"), !password.isEmpty else {
                throw .illegalArgument("newpassword is required")
            }
            let name = try RESTHandlerSteps.pathUsername(request, notFound: .entityNotFound)
            let now = request.nowMs
            guard state.directory.hasUser(name, in: app.key) else { throw .entityNotFound }
            if let first = PasswordPrework.newPasswordFirst(password, request, directory: state.directory) { return first }
            let derived = PasswordPrework.derivedHash(request)
            let user = try RESTHandlerSteps.domain(app, userNotFound: .entityNotFound) { () throws(DirectoryError) in
                try state.directory.changePassword(name, to: password, derived: derived, in: app.key, nowMs: now)
            }
            return RESTOutcome(
                response: RESTEnvelope(action: "set user password").response(nowMs: now),
                effects: [.passwordChanged(app.key, username: user.username)])
        }
    }

    /// `POST /users/{username}/deactivate`; effect ``RESTEffect/userDeactivated(_:username:)``.
    static func deactivate(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        setActivated(false, &state, request)
    }

    /// `POST /users/{username}/activate`.
    static func activate(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        setActivated(true, &state, request)
    }

    private static func setActivated(_ activated: Bool, _ state: inout Domain, _ request: RESTRequest)
        -> RESTOutcome
    {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            try RESTHandlerSteps.requireAppToken(request, app: app, directory: state.directory)
            let name = try RESTHandlerSteps.pathUsername(request)
            let now = request.nowMs
            let user = try RESTHandlerSteps.domain(app) { () throws(DirectoryError) in
                try state.directory.setActivated(activated, user: name, in: app.key, nowMs: now)
            }
            if activated {
                return RESTOutcome(response: RESTEnvelope(action: "activate user").response(nowMs: now))
            }
            var envelope = RESTEnvelope(action: "Deactivate user")
            envelope.entities = [user.entity]
            return RESTOutcome(
                response: envelope.response(nowMs: now), effects: [.userDeactivated(app.key, username: user.username)])
        }
    }
}
