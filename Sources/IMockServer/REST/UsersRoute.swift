import IMockCore
import IMockNet

/// `POST /users` (register, single or batch) and `GET /users` (list).
enum UsersRoute {
    /// Registration. An object body registers one user (an existing name is 400
    /// `duplicate_unique_property_exists`); an array body is a batch of ≤ 60 whose existing
    /// names are reported in `data` while the others are created. Open mode allows a
    /// tokenless single object; a batch always needs an app token.
    static func register(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            try RESTHandlerSteps.requireJSONContentType(request)
            let caller = try RESTHandlerSteps.caller(request, app: app, directory: state.directory)
            if case .user = caller { throw .noPermission(method: request.http.method, app: app) }
            if caller == .anonymous, app.settings.registrationMode == .authorized { throw .registrationNotOpen }
            let body = try RESTHandlerSteps.jsonBody(request)
            let now = request.nowMs
            var envelope = RESTEnvelope(action: "post", app: app, path: "/users", uri: request.uri)
            switch body {
            case .object:
                let given = [try newUser(body)]
                if let first = PasswordPrework.derivationsFirst(given, request, app: app, directory: state.directory) {
                    return first
                }
                let entry = PasswordPrework.withDerivedHashes(given, request)[0]
                let user = try RESTHandlerSteps.domain(app) { () throws(DirectoryError) in
                    try state.directory.registerUser(entry, in: app.key, nowMs: now)
                }
                envelope.entities = [user.entity]
            case .array(let elements):
                if caller == .anonymous { throw .registrationNotOpen }
                guard !elements.isEmpty else { throw .illegalArgument("request body array is empty") }
                guard elements.count <= Directory.maximumBatchSize else {
                    throw .from(DirectoryError.batchTooLarge(elements.count), app: app)
                }
                var given: [NewUser] = []
                for element in elements { given.append(try newUser(element)) }
                if let first = PasswordPrework.derivationsFirst(given, request, app: app, directory: state.directory) {
                    return first
                }
                let entries = PasswordPrework.withDerivedHashes(given, request)
                let result = try RESTHandlerSteps.domain(app) { () throws(DirectoryError) in
                    try state.directory.registerBatch(entries, in: app.key, nowMs: now)
                }
                envelope.entities = result.created.map(\.entity)
                envelope.data = .array(
                    result.existing.map {
                        ["username": .string($0), "registerUserFailReason": .string("the \($0) already exists")]
                    })
            default:
                throw .illegalArgument("request body must be a JSON object or array")
            }
            return RESTOutcome(response: envelope.response(nowMs: now))
        }
    }

    static func newUser(_ json: JSONValue) throws(RESTError) -> NewUser {
        let fields = try RESTBodyFields(json)
        guard let username = try fields.string("username") else {
            throw .illegalArgument("username [null] is not legal")
        }
        let password = try fields.string("password") ?? ""
        return NewUser(username: username, password: password, nickname: try fields.string("nickname"))
    }

    /// `GET /users?limit=N&cursor=C`: N from 1 to 100, default 10.
    static func list(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            try RESTHandlerSteps.requireAppToken(request, app: app, directory: state.directory)
            var limit = 10
            if let text = request.http.queryValue("limit") {
                guard let value = Int(text) else { throw .from(DirectoryError.invalidLimit(0), app: app) }
                limit = value
            }
            let cursor = request.http.queryValue("cursor").flatMap { $0.isEmpty ? nil : $0 }
            let page = try RESTHandlerSteps.domain(app) { () throws(DirectoryError) in
                try state.directory.users(in: app.key, limit: limit, cursor: cursor)
            }
            var envelope = RESTEnvelope(action: "get", app: app, path: "/users", uri: request.uri)
            envelope.params = params(request.http)
            envelope.entities = page.users.map(\.entity)
            envelope.count = page.users.count
            envelope.cursor = page.cursor
            return RESTOutcome(response: envelope.response(nowMs: request.nowMs))
        }
    }

    /// The query echo: `{"limit":["2"]}`, names in first-appearance order.
    static func params(_ http: HTTPRequest) -> JSONValue {
        var names: [String] = []
        for item in http.query where !names.contains(item.name) { names.append(item.name) }
        return .object(names.map { name in (key: name, value: .array(http.query.filter { $0.name == name }.map { .string($0.value) })) })
    }
}
