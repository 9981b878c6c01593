import IMockCore
import IMockWire

/// OpenIM's `/auth/…` routes (open-im-server `internal/rpc/auth/auth.go`; reference
/// openim-zim.md §A1): admin and user tokens, parse token, force logout.
enum OpenIMAuthRoutes {
    /// `get_admin_token {secret, userID}`: the app's client secret and `imAdmin`.
    static func adminToken(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        OpenIMCall.run(&state, request, needsToken: false) { (state, app, _, fields) throws(OpenIMError) in
            let secret = try OpenIMCall.args { () throws(JSONFieldError) in try fields.string("secret") } ?? ""
            let userID = try OpenIMCall.userID(fields)
            guard Crypto.secretsEqual(secret, app.clientSecret) else {
                throw OpenIMError(.noPermission, "secret invalid")
            }
            guard userID == OpenIMTokenCodec.adminUserID else {
                throw OpenIMError(.args, "\(userID) is not an admin userID (\(OpenIMTokenCodec.adminUserID))")
            }
            do {
                let issued = try state.directory.issueOpenIMAdminToken(
                    in: app.key, secret: secret, ttlSeconds: nil, nowMs: request.nowMs)
                return (tokenData(issued), [])
            } catch {
                throw OpenIMError(.serverInternal, "\(error)")
            }
        }
    }

    /// `get_user_token {platformID, userID}` (admin only).
    static func userToken(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        OpenIMCall.run(&state, request) { (state, app, caller, fields) throws(OpenIMError) in
            try OpenIMCall.requireAdmin(caller)
            let platform = try OpenIMCall.platform(fields)
            let userID = try OpenIMCall.userID(fields)
            guard platform != .admin else { throw OpenIMError(.noPermission, "platformID 10 is the admin's") }
            guard userID != OpenIMTokenCodec.adminUserID else { throw OpenIMError(.noPermission, "don't get Admin token") }
            do throws(DirectoryError) {
                let issued = try state.directory.issueOpenIMUserToken(
                    in: app.key, username: userID, platform: platform, ttlSeconds: nil, nowMs: request.nowMs)
                return (tokenData(issued), [])
            } catch {
                throw OpenIMUserRoutes.error(error)
            }
        }
    }

    /// `parse_token {token}`: `{userID, platformID, expireTimeSeconds}`, the last being the
    /// expiry as a Unix time (0: never).
    static func parseToken(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        OpenIMCall.run(&state, request, needsToken: false) { (state, app, _, fields) throws(OpenIMError) in
            let token = try OpenIMCall.args { () throws(JSONFieldError) in try fields.requiredString("token") }
            let claims = try OpenIMCall.verify(token, app: app, state: state, nowMs: request.nowMs)
            let data: JSONValue = .object([
                ("userID", .string(OpenIMTokenCodec.userID(of: claims))),
                ("platformID", .int(Int64(claims.platformID ?? 0))),
                ("expireTimeSeconds", .int((claims.expiresAtMs ?? 0) / 1000)),
            ])
            return (data, [])
        }
    }

    /// `force_logout {platformID, userID}` (admin only): the user's connections on that
    /// platform get 2002 and close; its tokens for that platform are kicked (1506 later).
    static func forceLogout(_ state: inout Domain, _ request: RESTRequest) -> RESTOutcome {
        OpenIMCall.run(&state, request) { (state, app, caller, fields) throws(OpenIMError) in
            try OpenIMCall.requireAdmin(caller)
            let userID = try OpenIMCall.userID(fields)
            let platform = try OpenIMCall.platform(fields)
            guard platform != .harmonyOS else { throw OpenIMError(.args, "platformID must be 1–10") }
            state.directory.kickOpenIMTokens(of: userID, platformID: platform.rawValue, in: app.key)
            // The live sessions' own tokens too (a `YWMt` token is bound to no platform).
            for session in state.engine.sessions(of: userID, in: app.key)
            where session.device.platform.openIMPlatformID == platform.rawValue {
                state.directory.revokeToken(id: session.device.tokenID, in: app.key, reason: .kicked)
            }
            return (.object([]), [.openIMForceLogout(app.key, username: userID, platformID: platform.rawValue)])
        }
    }

    static func tokenData(_ issued: IssuedToken) -> JSONValue {
        .object([("token", .string(issued.token)), ("expireTimeSeconds", .int(issued.expiresInSeconds))])
    }
}
