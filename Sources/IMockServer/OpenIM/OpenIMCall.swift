import IMockCore
import IMockNet
import IMockWire

/// Who called an OpenIM route, by its `token` header.
enum OpenIMCaller: Equatable {
    /// An admin token (OpenIM's `imAdmin`, or any app token of the app).
    case admin
    /// A user token of this user.
    case user(String)
}

/// The steps every OpenIM route shares (open-im-server `internal/api/router.go`, openimsdk/tools
/// `mw`, `apiresp`): the app from the path, the `operationID` header, the `token` header
/// (except on the whitelisted routes), the JSON body, and the answer: always HTTP 200 with
/// `{"errCode","errMsg","errDlt","data"}`.
enum OpenIMCall {
    /// Runs `body` for the app named in the path after the header checks; a thrown
    /// ``OpenIMError`` becomes the error envelope. `needsToken` false for the whitelisted routes.
    static func run(
        _ state: inout Domain, _ request: RESTRequest, needsToken: Bool = true,
        _ body: (inout Domain, RESTApp, OpenIMCaller?, JSONObjectReader) throws(OpenIMError) -> (JSONValue?, [DomainChange])
    ) -> RESTOutcome {
        do throws(OpenIMError) {
            guard let operationID = request.http.headers["operationID"], !operationID.isEmpty else {
                throw OpenIMError(.args, "header must have operationID")
            }
            let org = request.pathParameters["org"] ?? ""
            let name = request.pathParameters["app"] ?? ""
            guard let app = state.directory.app(org: org, app: name).map(RESTApp.init) else {
                throw OpenIMError(.recordNotFound, "no app \(org)#\(name)")
            }
            var caller: OpenIMCaller?
            if needsToken {
                guard let token = request.http.headers["token"], !token.isEmpty else {
                    throw OpenIMError(.args, "header must have token")
                }
                caller = try self.caller(token, app: app, state: state, nowMs: request.nowMs)
            }
            let fields = try reader(request)
            let (data, effects) = try body(&state, app, caller, fields)
            return RESTOutcome(response: response(data: data), effects: effects)
        } catch {
            return RESTOutcome(response: response(error))
        }
    }

    /// The caller of a token: an app token is an admin; a user token is its user.
    static func caller(_ token: String, app: RESTApp, state: Domain, nowMs: Int64) throws(OpenIMError) -> OpenIMCaller {
        let claims = try verify(token, app: app, state: state, nowMs: nowMs)
        return claims.kind == .app ? .admin : .user(claims.subject)
    }

    /// The claims of a token of `app`, or its 15xx error.
    static func verify(_ token: String, app: RESTApp, state: Domain, nowMs: Int64) throws(OpenIMError) -> TokenClaims {
        do {
            return try state.directory.verifyToken(token, for: app.key, nowMs: nowMs)
        } catch {
            throw OpenIMError(OpenIMErrorCode(error), tokenDetail(error))
        }
    }

    static func tokenDetail(_ error: TokenError) -> String {
        switch error {
        case .malformed: "token is not a JWT"
        case .badSignature: "signature is invalid"
        case .otherApp(let key): "the token is of another app (\(key))"
        case .expired: "token is expired"
        case .revoked: "token does not exist"
        case .kicked: "token was kicked"
        }
    }

    /// Only an admin may call this route.
    static func requireAdmin(_ caller: OpenIMCaller?) throws(OpenIMError) {
        guard caller == .admin else { throw OpenIMError(.noPermission, "only an admin may call this") }
    }

    /// The body's JSON object.
    static func reader(_ request: RESTRequest) throws(OpenIMError) -> JSONObjectReader {
        do {
            return try JSONObjectReader(try JSONValue.parse(request.http.body))
        } catch let error as JSONFieldError {
            throw OpenIMError(.args, error.sentence)
        } catch {
            throw OpenIMError(.args, "the body is not JSON")
        }
    }

    /// A field error as ArgsError.
    static func args<T>(_ body: () throws(JSONFieldError) -> T) throws(OpenIMError) -> T {
        do {
            return try body()
        } catch {
            throw OpenIMError(.args, error.sentence)
        }
    }

    /// A platform id of the body (1–11), or ArgsError.
    static func platform(_ fields: JSONObjectReader) throws(OpenIMError) -> OpenIMPlatform {
        let id = try args { () throws(JSONFieldError) in try fields.requiredInt("platformID") }
        guard let platform = OpenIMPlatform(rawValue: Int(clamping: id)) else {
            throw OpenIMError(.args, "platformID \(id) is invalid")
        }
        return platform
    }

    /// A userID of the body: present and not empty.
    static func userID(_ fields: JSONObjectReader) throws(OpenIMError) -> String {
        let userID = try args { () throws(JSONFieldError) in try fields.string("userID") } ?? ""
        guard !userID.isEmpty else { throw OpenIMError(.args, "userID is empty") }
        return userID
    }

    /// `{"errCode":0,"errMsg":"","errDlt":"","data":…}`, `data` left out when nil.
    static func response(data: JSONValue?) -> HTTPResponse {
        var members: [(key: String, value: JSONValue)] = [("errCode", 0), ("errMsg", ""), ("errDlt", "")]
        if let data { members.append(("data", data)) }
        return .json(status: 200, JSONValue.object(members).encoded())
    }

    /// The error envelope (HTTP 200 too).
    static func response(_ error: OpenIMError) -> HTTPResponse {
        .json(status: 200, error.json.encoded())
    }
}
