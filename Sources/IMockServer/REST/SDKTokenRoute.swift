import IMockCore
import IMockNet

/// `GET /{org}/{app}/sdk/users/{username}/token/expires` with `Authorization: Bearer <user
/// token>`: the Easemob Web SDK's `renewToken(token)` asks when the new token expires
/// (`{"expire_timestamp": <epoch ms>}`) and restarts its timers from the answer. The server
/// takes the call as the renewal: the user's msync sessions whose token expires sooner take
/// the new one (``DomainChange/tokenPresented(_:username:token:)``), so the server's expiry
/// follows the SDK's. A token that never expires answers ``neverExpires``.
enum SDKTokenRoute {
    /// The `expire_timestamp` of a token without expiry: 9999-12-31T23:59:59Z.
    static let neverExpires: Int64 = 253_402_300_799_000

    static func expires(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        RESTHandlerSteps.run(&state, request) { (state, app) throws(RESTError) in
            let name = try RESTHandlerSteps.pathUsername(request)
            guard let token = try RESTHandlerSteps.bearerToken(request) else { throw .unauthorized }
            let claims: TokenClaims
            do throws(TokenError) {
                claims = try state.directory.verifyToken(token, for: app.key, nowMs: request.nowMs)
            } catch {
                throw .from(error)
            }
            guard claims.kind == .user, claims.subject == name else {
                throw .noPermission(method: request.http.method, app: app)
            }
            guard state.directory.hasUser(name, in: app.key) else { throw .serviceResourceNotFound }
            let body: JSONValue = ["expire_timestamp": .int(claims.expiresAtMs ?? neverExpires)]
            return RESTOutcome(
                response: .json(status: 200, body.encoded()),
                effects: [.tokenPresented(app.key, username: name, token: token)])
        }
    }
}
