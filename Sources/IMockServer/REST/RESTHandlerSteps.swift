import IMockCore
import IMockNet

/// Who made a request, judged by its `Authorization: Bearer` token.
enum RESTCaller: Equatable {
    case anonymous
    case app
    case user(String)
}

/// The steps every handler shares: app lookup, rate limit, content type, token, JSON body.
enum RESTHandlerSteps {
    /// Runs `body` for the app named in the path, after the app lookup (404) and the rate
    /// limit (429). A thrown ``RESTError`` becomes the error response.
    static func run(
        _ state: inout Domain, _ request: RESTRequest,
        _ body: (inout Domain, RESTApp) throws(RESTError) -> RESTOutcome
    ) -> RESTOutcome {
        let org = request.pathParameters["org"] ?? ""
        let name = request.pathParameters["app"] ?? ""
        guard let app = state.directory.app(org: org, app: name).map(RESTApp.init) else {
            return RESTOutcome(
                response: RESTError.appNotFound(org: org, app: name, path: request.http.path)
                    .response(nowMs: request.nowMs))
        }
        // A handler run again with its derived hashes was admitted the first time.
        let isRerun = if case .derived = request.passwords { true } else { false }
        guard isRerun || state.rateLimiter.admit(app.key, limitPerSecond: app.settings.restRateLimitPerSecond, nowMs: request.nowMs)
        else { return RESTOutcome(response: RESTError.reachLimit.response(nowMs: request.nowMs)) }
        do {
            return try body(&state, app)
        } catch {
            return RESTOutcome(response: error.response(nowMs: request.nowMs))
        }
    }

    /// 415 unless the Content-Type (when present) is `application/json` or `…+json`. A value
    /// repeated with a comma (`application/json, application/json`) counts as JSON when every
    /// part is: a browser joins two `setRequestHeader` calls that way, and the Agora Chat 1.2.2
    /// full build sets both `Content-type` and `Content-Type` (docs/SDK-COMPAT.md).
    static func requireJSONContentType(_ request: RESTRequest) throws(RESTError) {
        guard let value = request.http.headers["Content-Type"] else { return }
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        for part in parts {
            let mediaType = part.split(separator: ";").first.map { String($0).trimmedLowercased() } ?? ""
            guard mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
            else { throw .unsupportedMediaType }
        }
    }

    /// The JSON body; 400 `json_parse` when it is not JSON.
    static func jsonBody(_ request: RESTRequest) throws(RESTError) -> JSONValue {
        do {
            return try JSONValue.parse(request.http.body)
        } catch {
            // Which value wins for a repeated key differs between parsers, so imock refuses it.
            guard error.reason == .duplicateKey else { throw .jsonParse }
            throw .illegalArgument("the request body repeats the key \(error.path)")
        }
    }

    /// The caller; a present but refused token is a 401.
    static func caller(_ request: RESTRequest, app: RESTApp, directory: Directory) throws(RESTError) -> RESTCaller {
        guard let token = try bearerToken(request) else { return .anonymous }
        do {
            let claims = try directory.verifyToken(token, for: app.key, nowMs: request.nowMs)
            return claims.kind == .app ? .app : .user(claims.subject)
        } catch {
            throw .from(error)
        }
    }

    /// The `Authorization: Bearer` token; nil without the header, 401 when it is not a bearer.
    static func bearerToken(_ request: RESTRequest) throws(RESTError) -> String? {
        guard let header = request.http.headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw .from(TokenError.malformed) }
        return String(parts[1])
    }

    /// Requires an app token: none → 401 `unauthorized`, a user token → 401 no permission.
    static func requireAppToken(_ request: RESTRequest, app: RESTApp, directory: Directory) throws(RESTError) {
        switch try caller(request, app: app, directory: directory) {
        case .app: return
        case .anonymous: throw .unauthorized
        case .user: throw .noPermission(method: request.http.method, app: app)
        }
    }

    /// The canonical username from the path; an illegal name cannot exist, so it is not found.
    /// For admin routes on one user: checks the app token, then returns the path's username,
    /// which must exist (404 `service_resource_not_found` otherwise).
    static func existingUserForAdmin(_ request: RESTRequest, app: RESTApp, directory: Directory) throws(RESTError) -> String {
        try requireAppToken(request, app: app, directory: directory)
        let name = try pathUsername(request)
        guard directory.hasUser(name, in: app.key) else { throw .serviceResourceNotFound }
        return name
    }

    static func pathUsername(_ request: RESTRequest, notFound: RESTError = .serviceResourceNotFound)
        throws(RESTError) -> String
    {
        guard let raw = request.pathParameters["username"], let name = try? UserFields.normalizeUsername(raw) else {
            throw notFound
        }
        return name
    }

    /// Maps a domain error with the app for context.
    static func domain<T>(
        _ app: RESTApp, userNotFound: RESTError = .serviceResourceNotFound, _ body: () throws(DirectoryError) -> T
    ) throws(RESTError) -> T {
        do {
            return try body()
        } catch {
            throw .from(error, app: app, userNotFound: userNotFound)
        }
    }
}

extension String {
    func trimmedLowercased() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()).lowercased()
    }
}
