import IMockCore
import IMockNet

/// `POST /{org}/{app}/token`: grants `client_credentials`, `password` and `inherit`.
enum TokenRoute {
    static func handle(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            try RESTHandlerSteps.requireJSONContentType(request)
            let fields = try RESTBodyFields(RESTHandlerSteps.jsonBody(request))
            let ttl = try fields.integer("ttl")
            let now = request.nowMs
            switch try fields.string("grant_type") {
            case "client_credentials":
                guard let clientID = try fields.string("client_id") else {
                    throw .illegalArgument("client_id must be provided.")
                }
                guard let clientSecret = try fields.string("client_secret") else {
                    throw .illegalArgument("client_secret must be provided")
                }
                let issued = try RESTHandlerSteps.domain(app) { () throws(DirectoryError) in
                    try state.directory.issueAppToken(
                        in: app.key, clientID: clientID, clientSecret: clientSecret, ttlSeconds: ttl, nowMs: now)
                }
                let body: JSONValue = [
                    "access_token": .string(issued.token), "expires_in": .int(issued.expiresInSeconds),
                    "application": .string(app.uuid),
                ]
                return RESTOutcome(response: .json(status: 200, body.encoded()))
            case "password":
                guard let username = try fields.string("username") else {
                    throw .illegalArgument("username [null] is not legal")
                }
                guard let password = try fields.string("password") else {
                    throw .illegalArgument("password or pin must provided")
                }
                if let first = PasswordPrework.verificationFirst(
                    password, of: username, request, app: app, directory: state.directory)
                {
                    return first
                }
                let derived = PasswordPrework.derivedHash(request)
                let result = try RESTHandlerSteps.domain(app, userNotFound: .invalidGrant("user not found", status: 404)) {
                    () throws(DirectoryError) in
                    try state.directory.issueUserToken(
                        in: app.key, username: username, password: password, derived: derived, ttlSeconds: ttl,
                        nowMs: now)
                }
                return userTokenResponse(result.token, result.user)
            case "inherit":
                try RESTHandlerSteps.requireAppToken(request, app: app, directory: state.directory)
                guard let username = try fields.string("username") else {
                    throw .illegalArgument("username [null] is not legal")
                }
                let autoCreate = try fields.bool("autoCreateUser") ?? false
                let result = try RESTHandlerSteps.domain(app, userNotFound: .entityNotFound) { () throws(DirectoryError) in
                    try state.directory.issueInheritedUserToken(
                        in: app.key, username: username, autoCreateUser: autoCreate, ttlSeconds: ttl, nowMs: now)
                }
                return userTokenResponse(result.token, result.user)
            case nil:
                throw .illegalArgument("grant_type must be provided")
            case let other?:
                throw .illegalArgument("unsupported grant_type: \(other)")
            }
        }
    }

    static func userTokenResponse(_ token: IssuedToken, _ user: User) -> RESTOutcome {
        let userObject: JSONValue = [
            "uuid": .string(user.uuid), "type": "user", "created": .int(user.createdMs),
            "modified": .int(user.modifiedMs), "username": .string(user.username), "activated": .bool(user.activated),
        ]
        let body: JSONValue = [
            "access_token": .string(token.token), "expires_in": .int(token.expiresInSeconds), "user": userObject,
        ]
        return RESTOutcome(response: .json(status: 200, body.encoded()))
    }
}
